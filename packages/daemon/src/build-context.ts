import { hostname } from 'node:os';
import type { Config, Env } from '@routeplane/shared';
import { createInfluence } from './breaker/engine.js';
import { MemoryStore } from './breaker/store.js';
import type { Clock } from './breaker/types.js';
import type { DaemonContext, ResolvedSeat } from './context.js';
import { EventBus } from './events/bus.js';
import { RecentDecisions } from './events/recent-decisions.js';

export interface ContextOptions {
  env: Env;
  clock: Clock;
  configPath: string | null;
  /** the engine's next due time moved without an event: the daemon's timer must look again */
  wake?: () => void;
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
  const tokenEnv = config.server.auth_token_env;
  const authToken = tokenEnv === null ? null : (env[tokenEnv] ?? null);
  if (tokenEnv !== null && !authToken) throw new Error(`environment variable ${tokenEnv} is not set (server.auth_token_env)`);
  if (authToken) secrets.push(authToken);

  const bus = new EventBus(() => clock.now());
  const daemonId = `${hostname().split('.')[0]}:${process.pid}`;
  const store = new MemoryStore(clock.now());
  const influence = createInfluence(config.influence, config.seats, config.routes, {
    clock,
    onChange: (change) => bus.emit(change),
    origin: daemonId,
    store,
    wake: opts.wake,
  });
  return {
    config,
    seats,
    routes: new Map(config.routes.map((r) => [r.model, r])),
    authToken,
    bus,
    influence,
    counters: { requests: 0, failovers: 0, fail_open: 0 },
    clock,
    startedAt: clock.now(),
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
