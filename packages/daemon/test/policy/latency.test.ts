import { describe, expect, it } from 'vitest';
import { targetKeys } from '../../src/breaker/topology.js';
import type { PlanEntry } from '../../src/breaker/types.js';
import { LatencyTracker } from '../../src/policy/latency.js';

/**
 * `balance: latency`: the exponentially weighted
 * mean with α = 0.2 of each target's times to first byte. The samples are
 * chosen so the order holds only for 0.15 < α < 0.25: a target whose samples
 * were 0 then 1000 ms has the mean 1000·α, against targets steady at 150 and
 * at 250 ms. A plain average (500), the last sample (1000) or the first (0)
 * would each order them differently.
 */

const entry = (seat: string, index: number): PlanEntry => ({ keys: targetKeys(seat, 'm', 'https://api.example'), index });

describe('balance: latency, the moving average', () => {
  it('weighs a new sample by 0.2: 0 then 1000 ms reads 200 ms, between steady 150 and 250', () => {
    const tracker = new LatencyTracker();
    const entries = [entry('slower', 0), entry('jumpy', 1), entry('faster', 2)];
    for (const ms of [250, 250, 250]) tracker.observe('slower/m', ms);
    for (const ms of [150, 150]) tracker.observe('faster/m', ms);
    tracker.observe('jumpy/m', 0);
    tracker.observe('jumpy/m', 1000);
    expect(tracker.mean('jumpy/m')).toBeCloseTo(200, 9);
    expect(tracker.order(entries).map((e) => e.keys.seat)).toEqual(['faster', 'jumpy', 'slower']);
  });

  it('every sample keeps its weight in the mean: three samples 1000, 0, 0 read 640 ms', () => {
    const tracker = new LatencyTracker();
    for (const ms of [1000, 0, 0]) tracker.observe('a/m', ms);
    // 1000 → 1000 + 0.2·(0 − 1000) = 800 → 800 + 0.2·(0 − 800) = 640
    expect(tracker.mean('a/m')).toBeCloseTo(640, 9);
    tracker.observe('b/m', 600);
    tracker.observe('c/m', 700);
    expect(tracker.order([entry('a', 0), entry('b', 1), entry('c', 2), entry('unsampled', 3)]).map((e) => e.keys.seat)).toEqual([
      'b',
      'a',
      'c',
      'unsampled',
    ]);
  });
});
