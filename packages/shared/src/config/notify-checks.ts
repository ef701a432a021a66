import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ConfigView } from './config-view.js';
import type { Env } from './env.js';
import type { RawIssue } from './yaml-document.js';

/** Whether `path` names a file this user may run. */
export type IsExecutable = (path: string) => boolean;

const executable: IsExecutable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * What the daemon could not deliver by: a `notify` that sends nowhere, and
 * a command whose program is not an absolute path nor found on PATH. Both
 * are warnings (a program installed later, a PATH set where serve runs),
 * never a reason to refuse the config.
 */
export function notifyWarnings(config: ConfigView, env: Env, isExecutable: IsExecutable = executable): RawIssue[] {
  const notify = config.notify;
  if (notify === undefined || notify === null) return [];
  if ((notify.command ?? null) === null && (notify.webhook ?? null) === null)
    return [{ path: ['notify'], message: 'has neither command nor webhook: no notification is sent' }];
  const program = notify.command?.[0];
  if (program === undefined) return [];
  const path = ['notify', 'command', 0];
  if (isAbsolute(program)) return isExecutable(program) ? [] : [{ path, message: `${program} is not a program this user can run` }];
  if (program.includes('/'))
    return [{ path, message: `"${program}" is relative to wherever serve starts: give an absolute path, or a program on PATH` }];
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  if (dirs.some((dir) => isExecutable(join(dir, program)))) return [];
  return [{ path, message: `program "${program}" is not on PATH: notifications by command will fail until it is` }];
}
