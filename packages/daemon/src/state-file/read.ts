import { readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseStateFile, type StateFile } from '@routeplane/shared';
import { TEMP_SUFFIX } from './write.js';

/** Far beyond any daemon's breakers: a bigger file is not one we wrote. */
const MAX_STATE_FILE_BYTES = 16 * 1024 * 1024;

export type LoadOutcome =
  /** nothing there yet: a first start */
  | { kind: 'missing' }
  | { kind: 'loaded'; state: StateFile }
  /** unreadable or not a state file: set aside (`movedTo`), or left where it is when even that failed */
  | { kind: 'set_aside'; why: string; movedTo: string }
  | { kind: 'stuck'; why: string; moveError: string };

/**
 * Reads the state file. One that cannot be read or parsed — not valid JSON,
 * not the shape a daemon writes, not a regular file — is never fatal and
 * never silently lost: it is renamed to `PATH.corrupt-<epoch ms>` for a
 * person to look at, and the daemon starts clean.
 */
export async function loadStateFile(path: string, now: number): Promise<LoadOutcome> {
  const read = await readState(path);
  if (read.kind !== 'unusable') return read;
  const movedTo = `${path}.corrupt-${now}`;
  try {
    await rename(path, movedTo);
    return { kind: 'set_aside', why: read.why, movedTo };
  } catch (err) {
    return { kind: 'stuck', why: read.why, moveError: errorCode(err) };
  }
}

type Read = { kind: 'missing' } | { kind: 'loaded'; state: StateFile } | { kind: 'unusable'; why: string };

async function readState(path: string): Promise<Read> {
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { kind: 'unusable', why: info.isDirectory() ? 'a directory, not a file' : 'not a regular file' };
    if (info.size > MAX_STATE_FILE_BYTES) return { kind: 'unusable', why: `too large (${info.size} bytes)` };
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = errorCode(err);
    if (code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unusable', why: `unreadable (${code})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // the parser's message quotes the text: only say what it is not
    return { kind: 'unusable', why: 'not valid JSON' };
  }
  const parsed = parseStateFile(json);
  return parsed.ok ? { kind: 'loaded', state: parsed.state } : { kind: 'unusable', why: `not a state file (${parsed.why})` };
}

/**
 * Removes what a save cut short (`kill -9` between writing the temporary
 * file and renaming it) left behind: temporary files of processes that are
 * gone. Never the file itself, never a live daemon's.
 */
export async function removeStaleTemps(path: string): Promise<void> {
  const prefix = `${basename(path)}${TEMP_SUFFIX}`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid <= 0 || (pid !== process.pid && alive(pid))) continue;
    await unlink(join(dirname(path), name)).catch(() => {});
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours
    return errorCode(err) === 'EPERM';
  }
}

export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? String(err);
}
