import { formatDuration, type InfluenceConfig, type RedisEndpoint, type StoreInfo } from '@routeplane/shared';

/**
 * What `serve` says when it has started: which file (and env file), where it listens, where the socket and the
 * decision log are, whether influence is on, where breakers are kept.
 * Pure: facts in, lines (or one JSON object) out. No secret is among the
 * facts: the Redis URL is rebuilt from its host, port and database alone.
 */
export type StoreFacts =
  | { kind: 'memory'; stateFile: string | null }
  | { kind: 'redis'; url: string; state: StoreInfo['state']; daemons: number };

export interface StartFacts {
  configPath: string;
  /** `serve --env-file`: where the variables the config names are read, at start and by every reload */
  envFile?: string | null;
  httpUrl: string;
  socketPath: string;
  /** null when `decision_log.path: false` */
  decisionLog: string | null;
  influence: Pick<InfluenceConfig, 'enabled' | 'cooldown_secs' | 'max_cooldown_secs' | 'trip_threshold' | 'window_secs'>;
  store: StoreFacts;
  /** breakers restored from `influence.state_file`, when one is used */
  restored: { count: number; from: string } | null;
  /** `config check`'s warnings, as it prints them */
  warnings: readonly string[];
}

/** `redis://127.0.0.1:6379/0`: where, never who (a user name stays out too). */
export function redisWhere(endpoint: RedisEndpoint): string {
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `${endpoint.tls ? 'rediss' : 'redis'}://${host}:${endpoint.port}/${endpoint.db}`;
}

function influenceWords(influence: StartFacts['influence']): string {
  if (!influence.enabled) return 'off (no breakers: chains route in configured order)';
  const cooldown = formatDuration(influence.cooldown_secs * 1000);
  const max = formatDuration(influence.max_cooldown_secs * 1000);
  const window = formatDuration(influence.window_secs * 1000);
  return `on (cooldown ${cooldown} doubling up to ${max}; ${influence.trip_threshold} failure(s) within ${window} trip a model)`;
}

function storeWords(store: StoreFacts): string {
  if (store.kind === 'redis') return `redis ${store.url} (${store.state})`;
  return store.stateFile === null ? 'memory' : `memory, saved to ${store.stateFile}`;
}

export function startLines(facts: StartFacts): string[] {
  const lines = [
    `config     ${facts.configPath}`,
    ...(facts.envFile ? [`env file   ${facts.envFile} (read again by every reload)`] : []),
    `listening  ${facts.httpUrl}`,
    `control    ${facts.socketPath}`,
    `decisions  ${facts.decisionLog ?? 'not recorded (decision_log.path: false)'}`,
    `influence  ${influenceWords(facts.influence)}`,
    `store      ${storeWords(facts.store)}`,
  ];
  if (facts.restored !== null) lines.push(`restored ${facts.restored.count} breaker(s) from ${facts.restored.from}`);
  lines.push(...facts.warnings);
  return lines;
}

/** The same facts as one event for `--log json`. */
export function startEvent(facts: StartFacts, ts: number): Record<string, unknown> {
  return {
    type: 'start',
    ts,
    config_path: facts.configPath,
    env_file: facts.envFile ?? null,
    http_url: facts.httpUrl,
    control_socket: facts.socketPath,
    decision_log: facts.decisionLog,
    influence: facts.influence.enabled,
    store: facts.store.kind === 'redis' ? { kind: 'redis', url: facts.store.url, state: facts.store.state } : { kind: 'memory' },
    state_file: facts.store.kind === 'memory' ? facts.store.stateFile : null,
    restored: facts.restored?.count ?? null,
    warnings: facts.warnings,
  };
}
