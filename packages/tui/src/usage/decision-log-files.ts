import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { DecisionEvent } from '@routeplane/shared';

/** What reading the decision log found besides the decisions. */
export interface LogRead {
  /** the files that were there, oldest first */
  files: string[];
  /** lines that were not a decision, by file name (files with none left out) */
  unreadable: Array<{ file: string; lines: number }>;
  /** the time of the earliest decision found; null when there was none */
  oldest: number | null;
}

/** The decision log's files, oldest first: `PATH.KEEP` … `PATH.1` (rotated), then `PATH` (live). */
export function decisionLogFiles(path: string, keep: number): string[] {
  const rotated = Array.from({ length: keep }, (_, i) => `${path}.${keep - i}`);
  return [...rotated, path];
}

/**
 * Hands every decision of the live and rotated decision logs to `each`,
 * oldest file first, a line at a time (the files may hold hundreds of MB).
 * A line that is not a decision is counted, never fatal. The live file's
 * last line may be one the daemon is writing right now: when it cannot be
 * read it is left out, not counted.
 */
export async function readDecisionLogs(path: string, keep: number, each: (decision: DecisionEvent) => void): Promise<LogRead> {
  const read: LogRead = { files: [], unreadable: [], oldest: null };
  for (const file of decisionLogFiles(path, keep)) {
    let lines: AsyncIterable<string>;
    try {
      lines = await openLines(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    read.files.push(file);
    let bad = 0;
    let lastWasBad = false;
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const decision = parseDecision(line);
      lastWasBad = decision === null;
      if (decision === null) {
        bad += 1;
        continue;
      }
      if (read.oldest === null || decision.ts < read.oldest) read.oldest = decision.ts;
      each(decision);
    }
    if (file === path && lastWasBad) bad -= 1;
    if (bad > 0) read.unreadable.push({ file: basename(file), lines: bad });
  }
  return read;
}

/** The file's lines; rejects (ENOENT) before any line when it is not there. */
async function openLines(file: string): Promise<AsyncIterable<string>> {
  const stream = createReadStream(file, { encoding: 'utf8' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  return createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
}

function parseDecision(line: string): DecisionEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const d = value as Partial<DecisionEvent>;
  const ok = d.type === 'decision' && typeof d.ts === 'number' && typeof d.status === 'number' && Array.isArray(d.attempts);
  return ok ? (value as DecisionEvent) : null;
}

/** `skipped 3 unreadable lines in decisions.ndjson.1, 1 in decisions.ndjson`; null when every line was read. */
export function unreadableWords(unreadable: LogRead['unreadable']): string | null {
  if (unreadable.length === 0) return null;
  const parts = unreadable.map((u, i) =>
    i === 0 ? `${u.lines} unreadable line${u.lines === 1 ? '' : 's'} in ${u.file}` : `${u.lines} in ${u.file}`,
  );
  return `skipped ${parts.join(', ')}`;
}
