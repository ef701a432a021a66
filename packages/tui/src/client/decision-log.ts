import type { ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { DecisionEvent } from '@routeplane/shared';

const BLOCK_BYTES = 64 * 1024;

/**
 * The last `count` decisions of the decision log, oldest first. Reads the
 * file backwards block by block (the log may be tens of MB) and, when the
 * current file is short, the rotated `.1` before it. Lines that are not
 * decisions (a torn last line, foreign text) are skipped.
 * Returns null when neither file exists.
 */
export async function readLastDecisions(path: string, count: number): Promise<DecisionEvent[] | null> {
  const current = await readLastLines(path, count);
  if (current === null) return null;
  let decisions = current.map(parseDecision).filter((d): d is DecisionEvent => d !== null);
  if (decisions.length < count) {
    const rotated = (await readLastLines(`${path}.1`, count - decisions.length)) ?? [];
    decisions = [...rotated.map(parseDecision).filter((d): d is DecisionEvent => d !== null), ...decisions];
  }
  return decisions.slice(-count);
}

function parseDecision(line: string): DecisionEvent | null {
  try {
    const value = JSON.parse(line) as { type?: unknown };
    return value !== null && typeof value === 'object' && value.type === 'decision' ? (value as DecisionEvent) : null;
  } catch {
    return null;
  }
}

/** Up to the last `count` non-empty lines; null when the file does not exist. */
async function readLastLines(path: string, count: number): Promise<string[] | null> {
  let file: import('node:fs/promises').FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    if (count <= 0) return [];
    const { size } = await file.stat();
    const blocks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    // one more newline than lines wanted: the first line read may be cut
    while (position > 0 && newlines <= count) {
      const length = Math.min(BLOCK_BYTES, position);
      position -= length;
      const block = Buffer.alloc(length);
      await file.read(block, 0, length, position);
      blocks.unshift(block);
      for (const byte of block) if (byte === 0x0a) newlines += 1;
    }
    let lines = Buffer.concat(blocks).toString('utf8').split('\n');
    if (position > 0) lines = lines.slice(1); // started mid-line
    return lines.filter((l) => l.trim() !== '').slice(-count);
  } finally {
    await file.close();
  }
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
 * Every decision in the log whose request id `matches`, the rotated `.1`
 * (older) first, and what each file held. Read a line at a time, and a line
 * is parsed only when it holds `"request_id":"` + `needle` (the daemon
 * writes compact JSON), so a log of tens of MB is searched in well under a
 * second.
 */
export async function searchDecisionLog(
  path: string,
  needle: string,
  matches: (requestId: string) => boolean,
): Promise<{ found: DecisionEvent[]; files: LogFileSearch[] }> {
  const found: DecisionEvent[] = [];
  const files: LogFileSearch[] = [];
  const quick = `"request_id":${JSON.stringify(needle).slice(0, -1)}`;
  for (const file of [`${path}.1`, path]) {
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
