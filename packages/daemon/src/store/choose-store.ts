import { type Config, type Env, readRedisUrl, type StoreInfo } from '@routeplane/shared';
import { resolve } from 'node:path';
import type { InfluenceEngine } from '../breaker/engine.js';
import { type BreakerStore, MemoryStore } from '../breaker/store.js';
import type { Clock } from '../breaker/types.js';
import type { DaemonLog } from '../log.js';
import { StateFileStore } from '../state-file/store.js';
import { redact } from '../signals/plain-text.js';
import { linkEngine } from './engine-link.js';
import type { RedisStore } from './redis-store.js';

export interface StoreChoice {
  readonly store: BreakerStore;
  /** the password, when the store has one: it joins the daemon's redacted secrets */
  readonly secret: string | null;
  /** hands the engine to the store once both exist */
  attach(engine: InfluenceEngine): void;
}

/** The Redis store, loaded only by a daemon that uses it (its client is a large module). */
export type RedisStoreClass = typeof RedisStore;

export async function loadRedisStore(config: Config): Promise<RedisStoreClass | null> {
  if (config.influence.shared === null || !config.influence.enabled) return null;
  return (await import('./redis-store.js')).RedisStore;
}

export interface StoreDeps {
  /** from `loadRedisStore`: needed when `influence.shared` is set */
  redisStore: RedisStoreClass | null;
  env: Env;
  clock: Clock;
  /** the daemon's start: a store that never changes state has been `ok` since then */
  startedAt: number;
  daemonId: string;
  log: DaemonLog;
  announce: (info: StoreInfo) => void;
  /** every secret of the daemon: redacted from the store's lines as a last line of defence */
  secrets: readonly string[];
}

/**
 * Memory (the default); memory saved to `influence.state_file`;
 * or Redis when `influence.shared` is set.
 * A state file store is made even with influence off: the file is left as it
 * is until a reload switches influence on and attaches an engine (the store
 * then loads it). A shared store is joined only with influence on at start
 * (a reload can't switch influence on or off while `shared` is set, see
 * reload.ts). The config loader already refused a state file and a shared
 * store at once, a bad URL or an unset password variable; a hand-built
 * config that bypasses it is refused here in the same words.
 */
export function chooseStore(config: Config, deps: StoreDeps): StoreChoice {
  const { shared, state_file: stateFile, enabled } = config.influence;
  if (shared === null && stateFile === null) {
    return { store: new MemoryStore(deps.startedAt), secret: null, attach: () => {} };
  }
  if (shared !== null && stateFile !== null)
    throw new Error('influence.state_file: cannot be used with influence.shared (shared state already outlives any one daemon)');
  if (shared === null) {
    const store = new StateFileStore(resolve(stateFile!), deps.clock, deps.log);
    return { store, secret: null, attach: (engine) => store.attach(engine) };
  }
  if (!enabled) return { store: new MemoryStore(deps.startedAt), secret: null, attach: () => {} };
  const url = readRedisUrl(shared.redis_url);
  if (!url.ok) throw new Error(`influence.shared.redis_url: ${url.message}`);
  let password: string | null = null;
  if (shared.password_env !== null) {
    password = deps.env[shared.password_env] || null;
    if (password === null) throw new Error(`environment variable ${shared.password_env} is not set (influence.shared.password_env)`);
  }
  const secrets = password === null ? deps.secrets : [...deps.secrets, password];
  if (deps.redisStore === null) throw new Error('influence.shared: the Redis store was not loaded (loadRedisStore before buildContext)');
  const store = new deps.redisStore({
    shared,
    endpoint: url.endpoint,
    password,
    daemonId: deps.daemonId,
    clock: deps.clock,
    log: (line, level, topic) => deps.log(redact(line, secrets), level, topic),
    announce: deps.announce,
  });
  return {
    store,
    secret: password,
    attach(engine) {
      store.attach(linkEngine(engine));
    },
  };
}
