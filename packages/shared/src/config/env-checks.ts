import type { Env } from './env.js';
import type { ConfigView } from './config-view.js';
import type { RawIssue } from './yaml-document.js';

/**
 * The variables the config names must be set where the daemon runs. Only
 * names are ever reported, never a value.
 */
export function envCheck(config: ConfigView, env: Env): RawIssue[] {
  const issues: RawIssue[] = [];
  const unset = (name: string | null | undefined): name is string => typeof name === 'string' && !env[name];
  config.seats?.forEach((seat, i) => {
    // a passthrough or no-key seat never reads it (seat-checks.ts says to remove it)
    const readsKey = seat?.auth !== 'passthrough' && seat?.auth !== 'none';
    if (readsKey && unset(seat?.api_key_env)) {
      issues.push(unsetIssue(['seats', i, 'api_key_env'], seat.api_key_env));
    }
    for (const [name, value] of Object.entries(seat?.headers ?? {})) {
      const from = typeof value === 'object' ? value.env : undefined;
      if (unset(from)) issues.push(unsetIssue(['seats', i, 'headers', name, 'env'], from));
    }
  });
  const tokenEnv = config.server?.auth_token_env;
  if (unset(tokenEnv)) issues.push(unsetIssue(['server', 'auth_token_env'], tokenEnv));
  issues.push(...agentTokens(config, env));
  return issues;
}

/** `environment variable NAME is not set`, marked as such for the words a reload adds. */
export function unsetIssue(path: PropertyKey[], name: string): RawIssue {
  return { path, message: `environment variable ${name} is not set`, unsetVariable: name };
}

/** Each agent's token_env must be set, and no two agents may share a token. */
function agentTokens(config: ConfigView, env: Env): RawIssue[] {
  const issues: RawIssue[] = [];
  const holderOf = new Map<string, string>();
  const tokenEnv = config.server?.auth_token_env;
  const defaultToken = typeof tokenEnv === 'string' ? env[tokenEnv] : undefined;
  if (tokenEnv && defaultToken) holderOf.set(defaultToken, tokenEnv);
  config.server?.agents?.forEach((agent, i) => {
    const name = agent?.token_env;
    if (name === undefined) return;
    const path = ['server', 'agents', i, 'token_env'];
    const token = env[name];
    if (!token) {
      issues.push(unsetIssue(path, name));
      return;
    }
    const holder = holderOf.get(token);
    if (holder !== undefined && holder !== name)
      issues.push({ path, message: `${name} holds the same token as ${holder}: tokens must differ` });
    else holderOf.set(token, name);
  });
  return issues;
}
