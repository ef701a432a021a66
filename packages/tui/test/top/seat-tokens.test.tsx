import type { SeatTokens, Snapshot } from '@routeplane/shared';
import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { tokenCount } from '../../src/output/token-count.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { decision, troubledSnapshot } from './support/fixtures.js';
import { seatsFrame as framed } from './support/seats-frame.js';

/**
 * Tokens summed per seat on top's seat line (as `status` and `/metrics` sum
 * them): the snapshot's tally, then each
 * later decision's usage added to its seat; shown compact (`1.2M tok`) where
 * the width leaves the breaker's detail its whole first part.
 */
const NOW = new Date(2025, 0, 15, 14, 3, 7).getTime();

afterEach(() => cleanup());

function tokens(input: number, output: number, cacheRead = 0): SeatTokens {
  return { input, output, cache_read: cacheRead, cache_write: 0 };
}

/** The troubled fixture with a token tally on two seats (the third reported none). */
function withTokens(snapshot: Snapshot): Snapshot {
  const tally: Record<string, SeatTokens> = { 'work-max': tokens(1_100_000, 134_567, 9_000_000), 'personal-pro': tokens(40_000, 8_000) };
  return { ...snapshot, seats: snapshot.seats.map((s) => ({ ...s, tokens: tally[s.id] ?? tokens(0, 0) })) };
}

const seatsFrame = (snapshot: Snapshot, width: number): string[] => framed(snapshot, width, NOW);

describe('tokens on the seat line', () => {
  test('each seat row says its tokens in and out, right-aligned in one column; a model row has none', () => {
    const rows = seatsFrame(withTokens(troubledSnapshot(NOW)), 120);
    const row = (start: string) => rows.find((r) => r.startsWith(` ${start}`)) ?? `(no ${start} row in\n${rows.join('\n')})`;
    expect(row('work-max')).toMatch(/^ work-max +1\.2M tok +✗ credit +probe in 3m05s · failed again 4 · 1 failed probe$/);
    expect(row('personal-pro')).toMatch(/^ personal-pro +48k tok +● healthy +anthropic$/);
    expect(row('openrouter')).toMatch(/^ openrouter +✗ rate-limit/);
    const end = (r: string, text: string) => r.indexOf(text) + text.length;
    expect(end(row('personal-pro'), '48k tok')).toBe(end(row('work-max'), '1.2M tok'));
    for (const r of rows.filter((r) => r.startsWith(' └'))) expect(r).not.toContain('tok');
  });

  test('the tokens take spare room only: where they would drop a count the row shows without them, they make way', () => {
    // at 66 columns the row has room for its countdown and one count, not for the tokens too
    const rows = seatsFrame(withTokens(troubledSnapshot(NOW)), 66);
    expect(rows.join('\n')).not.toContain('tok');
    expect(rows.find((r) => r.startsWith(' work-max'))).toMatch(/✗ credit +probe in 3m05s · failed again 4$/);
    // narrower still, that count goes anyway: the tokens fit beside the countdown
    const narrow = seatsFrame(withTokens(troubledSnapshot(NOW)), 60);
    expect(narrow.find((r) => r.startsWith(' work-max'))).toMatch(/^ work-max +1\.2M tok +✗ credit +probe in 3m05s$/);
    // and where even the countdown would be cut, no tokens
    const narrowest = seatsFrame(withTokens(troubledSnapshot(NOW)), 50);
    expect(narrowest.join('\n')).not.toContain('tok');
    expect(narrowest.find((r) => r.startsWith(' work-max'))).toMatch(/✗ credit +probe in 3m05s$/);
  });

  test('a daemon that sends no tally, or no seat reported any: no tokens column at all', () => {
    expect(seatsFrame(troubledSnapshot(NOW), 120).join('\n')).not.toContain('tok');
    const none = troubledSnapshot(NOW);
    const zeros = { ...none, seats: none.seats.map((s) => ({ ...s, tokens: tokens(0, 0) })) };
    expect(seatsFrame(zeros, 120).join('\n')).not.toContain('tok');
    expect(seatsFrame(zeros, 120)).toEqual(seatsFrame(none, 120));
  });
});

describe('the tally follows the decisions', () => {
  test('a decision after the snapshot adds its usage to its seat; one the snapshot already counted does not', async () => {
    const store = new MonitorStore({ flushIntervalMs: 0, clock: () => NOW });
    const snapshot = { ...withTokens(troubledSnapshot(NOW)), seq: 10 };
    const usage = { input_tokens: 1000, output_tokens: 250, cache_read_tokens: 4000, cache_write_tokens: null };
    store.push({ kind: 'snapshot', snapshot });
    store.push({ kind: 'event', event: decision({ ts: NOW, seq: 9, served_by: 'personal-pro/claude-sonnet-4-5', usage }) });
    store.push({ kind: 'event', event: decision({ ts: NOW, seq: 11, served_by: 'personal-pro/claude-sonnet-4-5', usage }) });
    store.push({ kind: 'event', event: decision({ ts: NOW, seq: 12, served_by: 'personal-pro/claude-sonnet-4-5', usage: null }) });
    await vi.waitFor(() => expect(store.getState().decisionsReceived).toBe(3));
    const seat = store.getState().seats.find((s) => s.id === 'personal-pro');
    expect(seat?.tokens).toEqual({ input: 41_000, output: 8_250, cache_read: 4_000, cache_write: 0 });
    store.stop();
  });
});

describe('token counts in a few columns', () => {
  test.each([
    [0, '0'],
    [842, '842'],
    [1_000, '1k'],
    [1_234, '1.2k'],
    [9_960, '10k'],
    [48_000, '48k'],
    [340_499, '340k'],
    [1_234_567, '1.2M'],
    [34_000_000, '34M'],
    [1_500_000_000, '1.5B'],
  ])('%d → %s', (n, words) => {
    expect(tokenCount(n)).toBe(words);
  });
});
