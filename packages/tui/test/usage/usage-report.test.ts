import type { DecisionEvent } from '@routeplane/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { decisionLogFiles, readDecisionLogs, unreadableWords } from '../../src/usage/decision-log-files.js';
import { type UsageBy, type UsageReport, UsageTally } from '../../src/usage/usage-tally.js';
import { usageTable } from '../../src/usage/usage-table.js';
import { LIVE, ROTATED_1, ROTATED_2, T0, writeFixtureLog } from './fixture-log.js';

/**
 * `routeplane usage`'s grouping and totals over a decision log with two
 * rotated files and lines that are not decisions: every decision counted
 * once, in the row of the target that served it (or was tried last), the
 * unreadable lines counted per file, never fatal.
 */
const log = writeFixtureLog();
afterAll(() => log.remove());

const utcDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const EVERYTHING = { since: 0, until: Number.MAX_SAFE_INTEGER };

async function report(by: UsageBy, window = EVERYTHING): Promise<UsageReport> {
  const tally = new UsageTally(by, window, utcDay);
  await readDecisionLogs(log.path, 3, (d) => tally.add(d));
  return tally.report('USD');
}

const rowsOf = (r: UsageReport) => r.rows.map((row) => [row.key, row.requests]);

describe('reading the live and rotated decision logs', () => {
  it('oldest file first; unreadable lines counted per file; the live file’s last line, still being written, is not', async () => {
    const seen: DecisionEvent[] = [];
    const read = await readDecisionLogs(log.path, 3, (d) => seen.push(d));
    expect(seen.map((d) => d.request_id)).toEqual([...ROTATED_2, ...ROTATED_1, ...LIVE].map((d) => d.request_id));
    // .3 is not there: keep 3 lists it, reading skips it
    expect(decisionLogFiles(log.path, 3)).toEqual([`${log.path}.3`, `${log.path}.2`, `${log.path}.1`, log.path]);
    expect(read.files).toEqual([`${log.path}.2`, `${log.path}.1`, log.path]);
    expect(read.unreadable).toEqual([
      { file: 'decisions.ndjson.2', lines: 1 },
      { file: 'decisions.ndjson.1', lines: 3 },
    ]);
    expect(read.oldest).toBe(T0);
    expect(unreadableWords(read.unreadable)).toBe('skipped 1 unreadable line in decisions.ndjson.2, 3 in decisions.ndjson.1');
  });

  it('keep 1 reads only .1 and the live file', async () => {
    const seen: string[] = [];
    await readDecisionLogs(log.path, 1, (d) => seen.push(d.request_id));
    expect(seen).toEqual([...ROTATED_1, ...LIVE].map((d) => d.request_id));
  });
});

describe('grouping and totals', () => {
  it('by seat: the serving seat, else the last one tried; its fail-overs there too; a retry of one target is no fail-over', async () => {
    const r = await report('seat');
    expect(r.rows).toEqual([
      {
        key: 'max-2',
        requests: 3,
        served: 2,
        failed: 1,
        failovers: 2,
        tokens: { input: 600, output: 60, cache_read: 0, cache_write: 0 },
        cost: null,
      },
      {
        key: 'max-1',
        requests: 2,
        served: 2,
        failed: 0,
        failovers: 0,
        tokens: { input: 3_000, output: 300, cache_read: 5_000, cache_write: 300 },
        cost: 0.016125,
      },
      {
        key: 'openai',
        requests: 1,
        served: 1,
        failed: 0,
        failovers: 0,
        tokens: { input: 40_000, output: 8_000, cache_read: 30_000, cache_write: 0 },
        cost: 0.09625,
      },
      // the unknown route's 404 tried no target
      {
        key: null,
        requests: 1,
        served: 0,
        failed: 1,
        failovers: 0,
        tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
        cost: null,
      },
    ]);
    expect(r.total).toEqual({
      requests: 7,
      served: 5,
      failed: 2,
      failovers: 2,
      tokens: { input: 43_600, output: 8_360, cache_read: 35_000, cache_write: 300 },
      cost: 0.112375,
    });
    expect(r).toMatchObject({ since: 0, until: Number.MAX_SAFE_INTEGER, by: 'seat', currency: 'USD' });
  });

  it.each([
    [
      'target',
      [
        ['max-2/sonnet-5', 3],
        ['max-1/sonnet-5', 2],
        ['openai/gpt-5', 1],
        [null, 1],
      ],
    ],
    [
      'route',
      [
        ['sonnet', 5],
        ['gpt', 1],
        ['nope', 1],
      ],
    ],
    [
      'agent',
      [
        ['ci', 3],
        [null, 3],
        ['bot', 1],
      ],
    ],
    [
      'session',
      [
        ['aaaa11112222', 3],
        ['bbbb33334444', 1],
        ['cccc55556666', 1],
        ['dddd77778888', 1],
        [null, 1],
      ],
    ],
    [
      'day',
      [
        ['2026-11-30', 5],
        ['2026-12-01', 2],
      ],
    ],
  ] as const)('by %s: one row per key, largest first, ties in key order, none last', async (by, rows) => {
    const r = await report(by);
    expect(rowsOf(r)).toEqual(rows);
    // the rows add up to the total, whatever the grouping
    expect(r.rows.reduce((n, row) => n + row.requests, 0)).toBe(r.total.requests);
    expect(r.rows.reduce((n, row) => n + row.tokens.input, 0)).toBe(r.total.tokens.input);
  });

  it('by session: each session’s cost is its decisions’ costs, across files', async () => {
    const r = await report('session');
    expect(r.rows.find((row) => row.key === 'aaaa11112222')).toMatchObject({ requests: 3, served: 3, cost: 0.016125 });
  });

  it('--since is inclusive, --until exclusive', async () => {
    const r = await report('seat', { since: T0 + 60_000, until: LIVE[0]!.ts });
    expect(r.total.requests).toBe(4);
    expect(rowsOf(r)).toEqual([
      ['max-2', 2],
      ['max-1', 1],
      [null, 1],
    ]);
  });
});

describe('the table', () => {
  it('fits 80 columns, says — for no key and no price, and shares by seat', async () => {
    const lines = usageTable(await report('seat', { since: T0, until: T0 + 2 * 86_400_000 }));
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^usage by seat, \d{4}-\d\d-\d\d \d\d:\d\d → \d{4}-\d\d-\d\d \d\d:\d\d, costs in USD$/);
    expect(lines[1]).toMatch(/─ requests ─.*─ tokens ─/);
    expect(lines[2]).toMatch(/^seat +all +served +failed +f-o +in +out +c-read +c-write +cost +share$/);
    expect(lines[3]).toMatch(/^max-2 +3 +2 +1 +2 +600 +60 +0 +0 +— +40%$/);
    expect(lines[4]).toMatch(/^max-1 +2 +2 +0 +0 +3k +300 +5k +300 +0\.0161 +40%$/);
    expect(lines[5]).toMatch(/^openai +1 +1 +0 +0 +40k +8k +30k +0 +0\.0963 +20%$/);
    expect(lines[6]).toMatch(/^— +1 +0 +1 +0 +0 +0 +0 +0 +— +0%$/);
    expect(lines[7]).toMatch(/^total +7 +5 +2 +2 +44k +8\.4k +35k +300 +0\.1124 +100%$/);
    expect(lines[8]).toBe('f-o: fail-overs · c-read, c-write: cache tokens · share: of the requests served');
  });

  it('cuts a long key in its middle to keep 80 columns', async () => {
    const r = await report('target');
    const long = { ...r, rows: [{ ...r.rows[0]!, key: 'a-very-long-seat-name/claude-sonnet-4-5-20250929-with-a-suffix' }] };
    const lines = usageTable(long);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[3]).toMatch(/^a-very-long.*….*suffix +3 /);
  });
});
