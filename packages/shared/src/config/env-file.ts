import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import type { Env } from './env.js';
import type { ConfigIssue } from './yaml-document.js';

export type EnvironmentRead = { ok: true; env: Env } | { ok: false; issue: ConfigIssue };

/**
 * The environment a config's variables are read from: `base` (the
 * process's), and over it the variables of `envFile` when one is named, in
 * Node's env-file format (`NAME=value` lines, `#` comments, quoted values).
 * The file wins where both set a name: it is the one a reload reads again,
 * so a key changed there must not be shadowed by a copy the daemon started
 * with. Values are secrets: never written anywhere, not even in an error.
 */
export function environmentWith(base: Env, envFile: string | null): EnvironmentRead {
  if (envFile === null) return { ok: true, env: base };
  let text: string;
  try {
    text = readFileSync(envFile, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'env file not found' : `cannot read the env file (${code ?? (err as Error).message})`;
    return { ok: false, issue: { file: envFile, path: '', message } };
  }
  return { ok: true, env: { ...base, ...parseEnv(text) } };
}

/**
 * Said after `environment variable X is not set` when the daemon refuses a
 * reload: the variables it can see were fixed when it started, except
 * those of its env file, which every reload reads again.
 */
export function unsetVariableHint(envFile: string | null): string {
  if (envFile !== null) {
    return `the daemon's environment was fixed when it started; this reload read ${envFile} again: add the variable there and reload`;
  }
  return "the daemon's environment was fixed when it started, so a variable exported since does not reach it: restart it with the variable set, or start it with `routeplane serve --env-file FILE` and keep the keys in FILE, which every reload reads again";
}
