import type { ConfigView } from './config-view.js';
import type { RawIssue } from './yaml-document.js';

/**
 * What is allowed but probably not meant. `config check` prints these and
 * still exits 0; they never stop the daemon.
 */
export function configWarnings(config: ConfigView): RawIssue[] {
  return [
    ...influenceOff(config),
    ...unusedSeats(config),
    ...repeatedTargets(config),
    ...routesNoAgentMayUse(config),
    ...tokenBesideLogin(config),
  ];
}

function influenceOff(config: ConfigView): RawIssue[] {
  if (config.influence?.enabled !== false) return [];
  return [
    {
      path: ['influence', 'enabled'],
      message: 'routing influence is off: a seat out of credit or rate-limited keeps its place and every agent still tries it first',
    },
  ];
}

function unusedSeats(config: ConfigView): RawIssue[] {
  const used = new Set(config.routes?.flatMap((route) => route?.chain?.map((target) => target?.seat) ?? []));
  const issues: RawIssue[] = [];
  config.seats?.forEach((seat, i) => {
    if (seat?.id !== undefined && !used.has(seat.id)) {
      issues.push({ path: ['seats', i, 'id'], message: `no route uses seat "${seat.id}"` });
    }
  });
  return issues;
}

function repeatedTargets(config: ConfigView): RawIssue[] {
  const issues: RawIssue[] = [];
  config.routes?.forEach((route, i) => {
    const firstAt = new Map<string, number>();
    route?.chain?.forEach((target, j) => {
      if (target?.seat === undefined || target.model === undefined) return;
      const name = `${target.seat}/${target.model}`;
      const first = firstAt.get(name);
      if (first === undefined) firstAt.set(name, j);
      else issues.push({ path: ['routes', i, 'chain', j], message: `${name} is already chain[${first}]: the same target is tried twice` });
    });
  });
  return issues;
}

/**
 * With agents listed, only their tokens are accepted
 * (plus `auth_token_env`'s, which may use every route). A route outside every
 * agent's allow/deny can never be used.
 */
function routesNoAgentMayUse(config: ConfigView): RawIssue[] {
  const agents = (config.server?.agents ?? []).filter((agent) => agent !== undefined);
  if (agents.length === 0 || typeof config.server?.auth_token_env === 'string') return [];
  const mayUse = (route: string) =>
    agents.some((agent) => {
      const allow = agent.allow ?? [];
      return (allow.length === 0 || allow.includes(route)) && !(agent.deny ?? []).includes(route);
    });
  const issues: RawIssue[] = [];
  config.routes?.forEach((route, i) => {
    if (route?.model !== undefined && !mayUse(route.model)) {
      issues.push({
        path: ['routes', i, 'model'],
        message: `no agent may use route "${route.model}" (every agent's allow/deny leaves it out)`,
      });
    }
  });
  return issues;
}

/**
 * A daemon token in `Authorization` or `x-api-key` is taken off before
 * forwarding, so an agent whose own login must pass through has to send the
 * token beside it, in `x-routeplane-token`. Said once, whatever the count.
 */
function tokenBesideLogin(config: ConfigView): RawIssue[] {
  const hasToken = typeof config.server?.auth_token_env === 'string' || (config.server?.agents?.length ?? 0) > 0;
  const first = config.seats?.findIndex((seat) => seat?.auth === 'passthrough') ?? -1;
  if (!hasToken || first === -1) return [];
  return [
    {
      path: ['seats', first, 'auth'],
      message: "agents must send the daemon's token as x-routeplane-token so their own login can pass through",
    },
  ];
}
