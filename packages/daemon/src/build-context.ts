import { hostname } from 'node:os';
import type { Config, Env } from '@routeplane/shared';
import { createInfluence } from './breaker/engine.js';
import type { Clock } from './breaker/types.js';
import type { DaemonContext, ResolvedSeat } from './context.js';
import { EventBus } from './events/bus.js';
import { RecentDecisions } from './events/recent-decisions.js';
import { type AgentIdentity, TokenCheck } from './http/auth.js';
import { buildRouting } from './proxy/routing.js';
import { chooseStore } from './store/choose-store.js';

export interface ContextOptions {
  env: Env;
  clock: Clock;
  configPath: string | null;
  /** the engine's next due time moved without an event: the daemon's timer must look again */
  wake?: () => void;
  /** the daemon's own log lines (the shared store says when it is degraded) */
  log?: (line: string) => void;
  /** default `hostname:pid` (spec/shared-state.md) */
  daemonId?: string;
}

/**
 * Everything a running daemon shares, built from a validated config: seat
 * keys resolved once (never logged), the event bus, the breaker engine and
 * its store. The HTTP and control sides are started on top of it.
 */
export function buildContext(config: Config, opts: ContextOptions): DaemonContext {
  const { env, clock } = opts;
  const seats = new Map<string, ResolvedSeat>();
  const secrets: string[] = [];
  for (const seat of config.seats) {
    const apiKey = env[seat.api_key_env];
    if (!apiKey) throw new Error(`environment variable ${seat.api_key_env} is not set (seat ${seat.id})`);
    seats.set(seat.id, { ...seat, apiKey });
    secrets.push(apiKey);
  }
  const tokens = agentTokens(config, env);
  for (const { token } of tokens) secrets.push(token);

  const startedAt = clock.now();
  const bus = new EventBus(() => clock.now());
  const daemonId = opts.daemonId ?? `${hostname().split('.')[0]}:${process.pid}`;
  const { store, secret, attach } = chooseStore(config, {
    env,
    clock,
    daemonId,
    log: opts.log ?? (() => {}),
    announce: (info) => bus.emit({ type: 'store', store: info }),
    secrets,
  });
  if (secret !== null) secrets.push(secret);
  const influence = createInfluence(config.influence, config.seats, config.routes, {
    clock,
    onChange: (change) => bus.emit(change),
    origin: daemonId,
    store,
    wake: opts.wake,
  });
  attach(influence);
  return {
    config,
    seats,
    routes: new Map(config.routes.map((r) => [r.model, r])),
    routing: buildRouting(config, seats, tokens.length === 0 ? null : new TokenCheck(tokens)),
    bus,
    influence,
    counters: { requests: 0, failovers: 0, fail_open: 0 },
    clock,
    startedAt,
    httpUrl: '',
    secrets,
    daemonId,
    store,
    configPath: opts.configPath,
    restored: 0,
    usage: new Map(),
    recent: new RecentDecisions(bus),
    reload: () => ({ ok: false, error: { code: 'bad_config', message: 'reload is not available in this daemon' } }),
  };
}

/**
 * Every agent token (spec/policy.md "Agents"): `server.agents`, and
 * `server.auth_token_env` as one more agent, `default`, with no limits.
 */
function agentTokens(config: Config, env: Env): Array<{ token: string; agent: AgentIdentity }> {
  const out: Array<{ token: string; agent: AgentIdentity }> = [];
  const tokenEnv = config.server.auth_token_env;
  if (tokenEnv !== null) {
    const token = env[tokenEnv];
    if (!token) throw new Error(`environment variable ${tokenEnv} is not set (server.auth_token_env)`);
    out.push({ token, agent: { id: 'default', allow: [], deny: [], lane: null } });
  }
  for (const agent of config.server.agents) {
    const token = env[agent.token_env];
    if (!token) throw new Error(`environment variable ${agent.token_env} is not set (server.agents: ${agent.id})`);
    out.push({ token, agent: { id: agent.id, allow: agent.allow, deny: agent.deny, lane: agent.lane } });
  }
  return out;
}
