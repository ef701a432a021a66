import type { Config } from './schema.js';
import type { RawIssue } from './yaml-document.js';

/**
 * Cross-checks of the routing-policy keys that one key's
 * schema cannot see. Ranges (max_attempts 1–5, backoff_ms 50–10000,
 * weight ≥ 0, cost ≥ 0) are the schema's.
 */

/** The agent id `server.auth_token_env` stands for. */
export const DEFAULT_AGENT_ID = 'default';

export function policyChecks(config: Config): RawIssue[] {
  return [...aliasChecks(config), ...retryChecks(config), ...agentChecks(config)];
}

function aliasChecks(config: Config): RawIssue[] {
  const routes = new Set(config.routes.map((r) => r.model));
  const issues: RawIssue[] = [];
  for (const name of Object.keys(config.aliases)) {
    if (routes.has(name)) {
      issues.push({
        path: ['aliases', name],
        message: `"${name}" is a route name: an exact route always wins, so this alias would never apply`,
      });
    }
  }
  return issues;
}

function retryChecks(config: Config): RawIssue[] {
  const issues: RawIssue[] = [];
  config.routes.forEach((route, i) => {
    const retry = route.retry;
    if (retry !== null && retry.max_attempts > 1 && retry.retry_on.length === 0) {
      issues.push({
        path: ['routes', i, 'retry', 'retry_on'],
        message: `is empty while max_attempts is ${retry.max_attempts}: name at least one of 429, 5xx, timeout, or set max_attempts to 1`,
      });
    }
  });
  return issues;
}

/**
 * `allow` and `deny` name routes, never aliases: they are checked against
 * the resolved route, so an alias there could never match.
 */
function agentChecks(config: Config): RawIssue[] {
  const issues: RawIssue[] = [];
  const routes = config.routes.map((r) => r.model);
  const routeSet = new Set(routes);
  const ids = new Map<string, string>();
  const tokenEnvs = new Map<string, string>();
  const { agents, auth_token_env } = config.server;
  if (agents.length > 0 && auth_token_env !== null) {
    ids.set(DEFAULT_AGENT_ID, 'server.auth_token_env');
    tokenEnvs.set(auth_token_env, 'server.auth_token_env');
  }
  agents.forEach((agent, i) => {
    const at = `server.agents[${i}]`;
    const sameId = ids.get(agent.id);
    if (sameId !== undefined)
      issues.push({ path: ['server', 'agents', i, 'id'], message: `duplicate agent id "${agent.id}" (also ${sameId})` });
    else ids.set(agent.id, at);
    const sameEnv = tokenEnvs.get(agent.token_env);
    if (sameEnv !== undefined) {
      issues.push({
        path: ['server', 'agents', i, 'token_env'],
        message: `${agent.token_env} is already the token of ${sameEnv}: tokens must differ`,
      });
    } else tokenEnvs.set(agent.token_env, at);
    for (const list of ['allow', 'deny'] as const) {
      agent[list].forEach((name, j) => {
        if (routeSet.has(name)) return;
        const alias = Object.hasOwn(config.aliases, name) ? ` ("${name}" is an alias; ${list} names routes)` : '';
        issues.push({ path: ['server', 'agents', i, list, j], message: `unknown route "${name}"${alias} (routes: ${routes.join(', ')})` });
      });
    }
  });
  return issues;
}
