import type { Config } from '@routeplane/shared';
import type { ResolvedSeat } from '../credentials.js';
import type { AgentIdentity, TokenCheck } from '../http/auth.js';
import { type AliasResolver, compileAliases } from '../policy/aliases.js';
import { type PreparedRoute, prepareRoutes } from './route-table.js';

/**
 * What routing a request needs from the config, prepared once per config: the
 * route table, the alias resolver, the seats a pin may name, and the agent
 * tokens. A reload builds a new one and swaps it in; a request reads it once
 * when it starts, so requests in flight finish on the one they began with.
 */
export interface Routing {
  readonly routes: ReadonlyMap<string, PreparedRoute>;
  readonly aliases: AliasResolver;
  readonly seatIds: ReadonlySet<string>;
  /** what agents may send as `model` by name: the routes, then the aliases without `*` (`/v1/models`) */
  readonly modelIds: readonly string[];
  /** `known routes: "a", "b"; aliases: "c"`, for an unknown model's message */
  readonly knownNames: string;
  /** null: no token is asked for */
  readonly tokens: TokenCheck | null;
}

export function buildRouting(config: Config, seats: ReadonlyMap<string, ResolvedSeat>, tokens: TokenCheck | null): Routing {
  const routes = prepareRoutes(seats, new Map(config.routes.map((r) => [r.model, r])));
  const aliasNames = Object.keys(config.aliases).filter((a) => !a.includes('*'));
  const names = [...routes.keys(), ...aliasNames];
  const quoted = (list: Iterable<string>) => [...list].map((n) => JSON.stringify(n)).join(', ');
  return {
    routes,
    aliases: compileAliases(routes.keys(), config.aliases),
    seatIds: new Set(seats.keys()),
    modelIds: names,
    knownNames: `known routes: ${quoted(routes.keys())}${aliasNames.length > 0 ? `; aliases: ${quoted(aliasNames)}` : ''}`,
    tokens,
  };
}

/** Is `agent` (null: no agents configured) allowed the resolved `route`? (checked after aliases) */
export function agentMayUse(agent: AgentIdentity | null, route: string): boolean {
  if (agent === null) return true;
  if (agent.deny.includes(route)) return false;
  return agent.allow.length === 0 || agent.allow.includes(route);
}
