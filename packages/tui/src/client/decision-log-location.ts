import { resolve } from 'node:path';
import { defaultDecisionLogPath, type Env } from '@routeplane/shared';
import type { ClientOptions } from '../commands/client-options.js';
import { findClientConfig } from './socket-path.js';

/** Where the daemon writes its decisions, as a client finds out: the config's `decision_log.path`, else the default. */
export type LogLocation = { kind: 'file'; path: string } | { kind: 'disabled'; file: string };

export function decisionLogLocation(opts: ClientOptions, env: Env = process.env): LogLocation {
  const found = findClientConfig(opts.config, env);
  if (!found.found || found.config.decision_log.path === null) return { kind: 'file', path: defaultDecisionLogPath(env) };
  if (found.config.decision_log.path === false) return { kind: 'disabled', file: found.file };
  return { kind: 'file', path: resolve(found.config.decision_log.path) };
}
