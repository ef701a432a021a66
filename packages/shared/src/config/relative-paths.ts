import { isAbsolute, resolve } from 'node:path';

/**
 * The keys that name files. Relative ones are relative to the config file's
 * directory, as people expect of a config file — not to wherever a command
 * happened to start — so the daemon and every client find the same socket.
 * (Keys a schema version lacks are simply not there.)
 */
const PATH_KEYS = [
  ['control', 'socket'],
  ['decision_log', 'path'],
  ['influence', 'state_file'],
] as const;

export function resolveConfigPaths<T extends object>(config: T, configDir: string): T {
  const resolved: Record<string, unknown> = { ...(config as Record<string, unknown>) };
  for (const [section, key] of PATH_KEYS) {
    const holder = resolved[section];
    if (typeof holder !== 'object' || holder === null) continue;
    const value = (holder as Record<string, unknown>)[key];
    if (typeof value !== 'string' || isAbsolute(value)) continue;
    resolved[section] = { ...holder, [key]: resolve(configDir, value) };
  }
  return resolved as T;
}
