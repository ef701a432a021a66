import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_THRESHOLDS, HeapGrowthPolicy, startHeapTuning } from '../src/heap-tuning.js';

const MiB = 1024 * 1024;
const { onAtBytesPerSec, offBelowBytesPerSec, holdMs } = DEFAULT_THRESHOLDS;

/** Feeds one sample a second at `bytesPerSec` for `seconds`, from `start`; returns every non-null answer with its time. */
function feed(policy: HeapGrowthPolicy, bytesPerSec: number, seconds: number, start: number): { at: number; percent: number }[] {
  const changes: { at: number; percent: number }[] = [];
  for (let s = 1; s <= seconds; s++) {
    const at = start + s * 1000;
    const percent = policy.sample(bytesPerSec, 1000, at);
    if (percent !== null) changes.push({ at, percent });
  }
  return changes;
}

describe('HeapGrowthPolicy', () => {
  it('keeps the resting factor while bodies arrive slower than the threshold', () => {
    const policy = new HeapGrowthPolicy();
    expect(feed(policy, onAtBytesPerSec - 1, 120, 0)).toEqual([]);
  });

  it('raises the factor to 200% on the first busy sample, and says so once', () => {
    const policy = new HeapGrowthPolicy();
    expect(feed(policy, 2 * MiB, 5, 0)).toEqual([]);
    expect(feed(policy, onAtBytesPerSec, 10, 5_000)).toEqual([{ at: 6_000, percent: 200 }]);
  });

  it('keeps it through a pause shorter than the hold, then goes back to rest', () => {
    const policy = new HeapGrowthPolicy();
    feed(policy, 300 * MiB, 3, 0); // busy until t=3 s
    const idle = feed(policy, 0, 60, 3_000);
    expect(idle).toEqual([{ at: 3_000 + holdMs, percent: 100 }]);
  });

  it('a rate between the two thresholds keeps the big-body factor on, but does not turn it on', () => {
    const between = (onAtBytesPerSec + offBelowBytesPerSec) / 2;
    const off = new HeapGrowthPolicy();
    expect(feed(off, between, 60, 0)).toEqual([]);
    const on = new HeapGrowthPolicy();
    feed(on, onAtBytesPerSec, 1, 0);
    expect(feed(on, between, 120, 1_000)).toEqual([]);
    expect(feed(on, offBelowBytesPerSec - 1, 60, 121_000)).toEqual([{ at: 121_000 + holdMs, percent: 100 }]);
  });

  it('reads a rate from the bytes and the time between samples, not per sample', () => {
    const policy = new HeapGrowthPolicy();
    // 40 MiB in 500 ms is 80 MiB/s: busy; the same bytes over 1 s would not be
    expect(policy.sample(40 * MiB, 1000, 1000)).toBeNull();
    expect(policy.sample(40 * MiB, 500, 1500)).toBe(200);
    expect(new HeapGrowthPolicy().sample(10 * MiB, 0, 0)).toBeNull();
  });
});

describe('startHeapTuning', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("samples the running total and sets V8's flag only when the policy changes its answer", () => {
    vi.useFakeTimers();
    const received = { bodyBytes: 5 * MiB }; // what came before start does not count
    const flags: string[] = [];
    const tuning = startHeapTuning(() => received.bodyBytes, { setFlags: (f) => flags.push(f), now: () => Date.now() });

    expect(flags).toEqual(['--heap-growing-percent=100']); // at rest from the start
    vi.advanceTimersByTime(10_000); // idle
    expect(flags).toHaveLength(1);
    for (let s = 0; s < 5; s++) {
      received.bodyBytes += 100 * MiB;
      vi.advanceTimersByTime(1000);
    }
    expect(flags.slice(1)).toEqual(['--heap-growing-percent=200']);
    vi.advanceTimersByTime(holdMs + 2000);
    expect(flags.slice(1)).toEqual(['--heap-growing-percent=200', '--heap-growing-percent=100']);

    received.bodyBytes += 100 * MiB;
    vi.advanceTimersByTime(1000);
    tuning.stop(); // stopping hands the factor back to V8
    expect(flags.slice(3)).toEqual(['--heap-growing-percent=200', '--heap-growing-percent=0']);
    received.bodyBytes += 100 * MiB;
    vi.advanceTimersByTime(5000);
    expect(flags).toHaveLength(5);
  });

  it('gives the factor back to V8 when stopped at rest, and sets nothing after', () => {
    vi.useFakeTimers();
    const received = { bodyBytes: 0 };
    const flags: string[] = [];
    const tuning = startHeapTuning(() => received.bodyBytes, { setFlags: (f) => flags.push(f), now: () => Date.now() });
    vi.advanceTimersByTime(3000);
    tuning.stop();
    received.bodyBytes += 500 * MiB;
    vi.advanceTimersByTime(5000);
    expect(flags).toEqual(['--heap-growing-percent=100', '--heap-growing-percent=0']);
  });
});
