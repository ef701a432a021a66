import { hostname } from 'node:os';
import type { Config, Env } from '@routeplane/shared';
import type { DaemonLog } from './log.js';
import { ReloadableInfluence } from './breaker/reloadable.js';
import { agentTokenCheck, resolveSeats } from './credentials.js';
import type { DaemonMetrics } from './metrics/daemon-metrics.js';
import { createMetrics } from './metrics/registry.js';
import { reloadConfig, type ReloadEnv } from './reload.js';
import type { Clock } from './breaker/types.js';
import type { DaemonContext } from './context.js';
import { EventBus } from './events/bus.js';
import { RecentDecisions } from './events/recent-decisions.js';
import { buildRouting } from './proxy/routing.js';
import { UsageBook } from './usage/usage-book.js';
import { chooseStore, type RedisStoreClass } from './store/choose-store.js';
import { defaultDaemonId } from './store/daemon-id.js';

export interface ContextOptions {
  /** the variables the config names, as the daemon starts */
  env: Env;
  /** where a reload reads them again: the process's environment as it started, and the env file anew (default: `env` alone) */
  reloadEnv?: ReloadEnv;
  clock: Clock;
  configPath: string | null;
  /** the engine's next due time moved without an event: the daemon's timer must look again */
  wake?: () => void;
  /** the daemon's own log lines: reloads say what they did, the state file when it set a file aside, the shared store when it is degraded */
  log?: DaemonLog;
  /** default `hostname:pid` */
  daemonId?: string;
  /** `loadRedisStore(config)`: only a daemon with `influence.shared` loads the Redis client */
  redisStore?: RedisStoreClass | null;
}

/**
 * Everything a running daemon shares, built from a validated config: seat
 * keys resolved once (never logged), the event bus, the breaker engine and
 * its store. The HTTP and control sides are started on top of it.
 */
export function buildContext(config: Config, opts: ContextOptions): DaemonContext {
  const { env, clock } = opts;
  const resolved = resolveSeats(config, env);
  const seats = resolved.seats;
  const tokens = agentTokenCheck(config, env);
  const secrets = [...resolved.secrets, ...tokens.secrets];

  const startedAt = clock.now();
  const bus = new EventBus(() => clock.now());
  const daemonId = opts.daemonId ?? defaultDaemonId(hostname(), process.pid);
  const { store, secret, attach } = chooseStore(config, {
    redisStore: opts.redisStore ?? null,
    env,
    clock,
    startedAt,
    daemonId,
    log: opts.log ?? (() => {}),
    announce: (info) => bus.emit({ type: 'store', store: info }),
    secrets,
  });
  if (secret !== null) secrets.push(secret);
  // the store follows every engine: a reload that switches influence off and on builds a new one
  const influence = new ReloadableInfluence(
    config.influence,
    config.seats,
    config.routes,
    { clock, onChange: (change) => bus.emit(change), origin: daemonId, store, wake: opts.wake },
    attach,
  );
  const context: DaemonContext = {
    config,
    seats,
    routing: buildRouting(config, seats, tokens.check),
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
    usage: new UsageBook(bus, () => clock.now()),
    recent: new RecentDecisions(bus),
    reload: () => reloadConfig(context, influence, opts.reloadEnv ?? { base: env, file: null }, opts.log ?? (() => {})),
    metrics: undefined as unknown as DaemonMetrics,
  };
  context.metrics = createMetrics(context);
  return context;
}
