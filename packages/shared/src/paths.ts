import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from './config/env.js';

/** Where the control socket lives when the config names none. */
export function defaultSocketPath(env: Env = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  return runtime ? join(runtime, 'routeplane', 'control.sock') : join(env.HOME || homedir(), '.routeplane', 'control.sock');
}

/** Where decisions are appended when the config names no path. */
export function defaultDecisionLogPath(env: Env = process.env): string {
  return join(env.HOME || homedir(), '.routeplane', 'decisions.ndjson');
}
