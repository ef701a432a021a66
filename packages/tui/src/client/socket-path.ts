import { resolve } from 'node:path';
import { defaultSocketPath, formatIssue, parseConfig, readConfigText, type Config, type ConfigIssue, type Env } from '@routeplane/shared';

/** A config the client could not use; carries every issue, one per line. */
export class ClientConfigError extends Error {
  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'ClientConfigError';
  }
}

export type ClientConfig = { found: false } | { found: true; file: string; config: Config };

/**
 * The config as a client reads it: same discovery and the same strict schema
 * as the daemon (a typo must not silently point at the default socket), but
 * the seats' key variables need not be set: `routeplane status` runs in
 * shells that never see the API keys, and a client never needs them.
 * An explicit `--config` that cannot be read is an error; finding no config
 * through discovery is not.
 */
export function findClientConfig(explicit: string | undefined, env: Env = process.env, cwd = process.cwd()): ClientConfig {
  const read = readConfigText(explicit, env, cwd);
  if (read.kind === 'none') return { found: false };
  if (read.kind === 'unreadable') throw new ClientConfigError([read.issue]);
  const result = parseConfig(read.text, read.file, keysNotNeeded(env));
  if (!result.ok) throw new ClientConfigError(result.issues);
  return { found: true, file: read.file, config: result.config };
}

/** Reads like `env`, except every variable counts as set (values are never used). */
function keysNotNeeded(env: Env): Env {
  return new Proxy(env, { get: (target, name) => (typeof name === 'string' ? (target[name] ?? 'set') : undefined) });
}

/**
 * Where the daemon's control socket is: `--socket`, else the config's
 * `control.socket` (when a config is found), else the default location.
 */
export function resolveSocketPath(opts: { socket?: string; config?: string }, env: Env = process.env, cwd = process.cwd()): string {
  if (opts.socket) return resolve(cwd, opts.socket);
  const found = findClientConfig(opts.config, env, cwd);
  if (found.found && found.config.control.socket !== null) return resolve(cwd, found.config.control.socket);
  return defaultSocketPath(env);
}
