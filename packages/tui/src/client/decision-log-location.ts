import { resolve } from 'node:path';
import { defaultDecisionLogPath, type Env } from '@routeplane/shared';
import type { ClientOptions } from '../commands/client-options.js';
import { type ClientConfig, findClientConfig } from './socket-path.js';

/**
 * Where the daemon writes its decisions, as a client finds out: the config's
 * `decision_log.path`, else the default; and how many rotated files it keeps.
 */
export type LogLocation = { kind: 'file'; path: string; keep: number } | { kind: 'disabled'; file: string };

/** `decision_log.keep`'s default, for a client that found no config. */
const DEFAULT_KEEP = 3;

export function decisionLogLocation(opts: ClientOptions, env: Env = process.env): LogLocation {
  return logLocationOf(findClientConfig(opts.config, env), env);
}

export function logLocationOf(found: ClientConfig, env: Env = process.env): LogLocation {
  if (!found.found) return { kind: 'file', path: defaultDecisionLogPath(env), keep: DEFAULT_KEEP };
  const { path, keep } = found.config.decision_log;
  if (path === false) return { kind: 'disabled', file: found.file };
  return { kind: 'file', path: path === null ? defaultDecisionLogPath(env) : resolve(path), keep };
}
