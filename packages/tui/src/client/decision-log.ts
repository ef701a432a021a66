import type { ReadStream } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { DecisionEvent } from '@routeplane/shared';

const BLOCK_BYTES = 64 * 1024;

/**
 * The last `count` decisions of the decision log that `keep` accepts,
 * oldest first. Reads the file backwards block by block (the log may be
 * tens of MB) and, when it holds too few, the rotated files before it
 * (`.1` … `.rotated`). Lines that are not decisions (a torn last line,
 * foreign text) are skipped. Returns null when the live file does not exist.
 */
export async function readLastDecisions(
  path: string,
  count: number,
  keep: (decision: DecisionEvent) => boolean = () => true,
  rotated = 1,
): Promise<DecisionEvent[] | null> {
  const newestFirst: DecisionEvent[] = [];
  const files = [path, ...Array.from({ length: rotated }, (_, i) => `${path}.${i + 1}`)];
  for (const [i, file] of files.entries()) {
    if (newestFirst.length >= count) break;
    const lines = await linesBackwards(file);
    if (lines === null) {
      if (i === 0) return null;
      continue;
    }
    for await (const line of lines) {
      if (newestFirst.length >= count) break;
      const decision = parseDecision(line);
      if (decision !== null && keep(decision)) newestFirst.push(decision);
    }
  }
  return newestFirst.reverse();
}

function parseDecision(line: string): DecisionEvent | null {
  try {
    const value = JSON.parse(line) as { type?: unknown };
    return value !== null && typeof value === 'object' && value.type === 'decision' ? (value as DecisionEvent) : null;
  } catch {
    return null;
  }
}

/** The file's non-empty lines, last first, read a block at a time; null when the file does not exist. */
async function linesBackwards(path: string): Promise<AsyncGenerator<string> | null> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return (async function* () {
    try {
      let position = (await file.stat()).size;
      // the end of a line whose start is in a block not read yet
      let carry = Buffer.alloc(0);
      while (position > 0) {
        const length = Math.min(BLOCK_BYTES, position);
        position -= length;
        const block = Buffer.alloc(length);
        await file.read(block, 0, length, position);
        const buf = carry.length === 0 ? block : Buffer.concat([block, carry]);
        let end = buf.length;
        for (let i = buf.length - 1; i >= 0; i--) {
          if (buf[i] !== 0x0a) continue;
          const line = buf.toString('utf8', i + 1, end);
          if (line.trim() !== '') yield line;
          end = i;
        }
        carry = buf.subarray(0, end);
      }
      const first = carry.toString('utf8');
      if (first.trim() !== '') yield first;
    } finally {
      await file.close();
    }
  })();
}

/** What one file of the decision log held for a search. */
export interface LogFileSearch {
  path: string;
  /** false when the file does not exist */
  exists: boolean;
  /** lines read */
  lines: number;
}

/**
 * Every decision in the log whose request id `matches`, the rotated files
 * (`.rotated` … `.1`, older) first, and what each file held. Read a line at a time, and a line
 * is parsed only when it holds `"request_id":"` + `needle` (the daemon
 * writes compact JSON), so a log of tens of MB is searched in well under a
 * second.
 */
export async function searchDecisionLog(
  path: string,
  needle: string,
  matches: (requestId: string) => boolean,
  rotated = 1,
): Promise<{ found: DecisionEvent[]; files: LogFileSearch[] }> {
  const found: DecisionEvent[] = [];
  const files: LogFileSearch[] = [];
  const quick = `"request_id":${JSON.stringify(needle).slice(0, -1)}`;
  for (const file of [...Array.from({ length: rotated }, (_, i) => `${path}.${rotated - i}`), path]) {
    let stream: ReadStream;
    try {
      const handle = await open(file, 'r');
      stream = handle.createReadStream({ encoding: 'utf8' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        files.push({ path: file, exists: false, lines: 0 });
        continue;
      }
      throw err;
    }
    let lines = 0;
    for await (const line of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line === '') continue;
      lines += 1;
      if (!line.includes(quick)) continue;
      const decision = parseDecision(line);
      if (decision !== null && matches(decision.request_id)) found.push(decision);
    }
    files.push({ path: file, exists: true, lines });
  }
  return { found, files };
}
