import type { SeatUsage } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { type DrainInputs, drainOrder, drainWindow } from '../../src/policy/drain.js';

const NOW = 1_800_000_000_000;
const MIN = 60_000;

function usage(...windows: Array<[name: string, utilization: number, resetInMs: number | null]>): SeatUsage {
  return {
    observed_at: NOW,
    windows: windows.map(([name, utilization, resetIn]) => ({
      name,
      utilization,
      reset_at: resetIn === null ? null : NOW + resetIn,
      status: null,
    })),
    extra_usage: null,
  };
}

const entry = (seat: string) => ({ keys: { seat }, index: seat.charCodeAt(0) });

function order(seats: string[], usageBySeat: Record<string, SeatUsage>, over: Partial<DrainInputs> = {}): string[] {
  const inputs: DrainInputs = {
    usageOf: (seat) => usageBySeat[seat] ?? null,
    reservePctOf: () => 0,
    now: NOW,
    stickySeat: null,
    ...over,
  };
  return drainOrder(seats.map(entry), inputs).map((e) => e.keys.seat);
}

describe('balance: drain', () => {
  it('the window that resets soonest first, then seats with no known window, then those with no headroom', () => {
    expect(
      order(['a', 'b', 'c', 'd', 'e'], {
        a: usage(['5h', 0.3, 240 * MIN]),
        b: usage(['5h', 0.9, 20 * MIN]),
        // c reported nothing
        d: usage(['5h', 1.0, 5 * MIN]),
        e: usage(['5h', 0.1, 60 * MIN]),
      }),
    ).toEqual(['b', 'e', 'a', 'c', 'd']);
  });

  it("a seat's binding window is its fullest with a reset ahead; past and unknown resets do not count", () => {
    expect(drainWindow(usage(['5h', 0.2, 60 * MIN], ['7d', 0.8, 3 * 24 * 60 * MIN]), NOW)!.name).toBe('7d');
    expect(drainWindow(usage(['5h', 0.99, -MIN], ['requests', 0.5, null]), NOW)).toBeNull();
    // the weekly window binds, and it resets later than b's 5h: b first
    expect(
      order(['a', 'b'], {
        a: usage(['5h', 0.1, 30 * MIN], ['7d', 0.6, 2 * 24 * 60 * MIN]),
        b: usage(['5h', 0.5, 90 * MIN]),
      }),
    ).toEqual(['b', 'a']);
  });

  it('reserve_pct moves the headroom line: 95% with a 10% reserve is full', () => {
    const byUsage = { a: usage(['5h', 0.95, 10 * MIN]), b: usage(['5h', 0.2, 200 * MIN]) };
    expect(order(['a', 'b'], byUsage)).toEqual(['a', 'b']);
    expect(order(['a', 'b'], byUsage, { reservePctOf: (seat) => (seat === 'a' ? 10 : 0) })).toEqual(['b', 'a']);
  });

  it('equal resets, and seats without windows, keep their configured order', () => {
    const same = usage(['5h', 0.5, 30 * MIN]);
    expect(order(['c', 'a', 'b'], { a: same, b: same, c: same })).toEqual(['c', 'a', 'b']);
    expect(order(['c', 'a', 'b'], {})).toEqual(['c', 'a', 'b']);
  });

  it('a session stays on the seat that last served it while that seat has headroom (or reported nothing), and leaves it when it is full', () => {
    const byUsage = { a: usage(['5h', 0.2, 10 * MIN]), b: usage(['5h', 0.2, 200 * MIN]) };
    expect(order(['a', 'b', 'c'], byUsage, { stickySeat: 'b' })).toEqual(['b', 'a', 'c']);
    expect(order(['a', 'b', 'c'], byUsage, { stickySeat: 'c' })).toEqual(['c', 'a', 'b']);
    expect(order(['a', 'b'], { ...byUsage, b: usage(['5h', 1.0, 200 * MIN]) }, { stickySeat: 'b' })).toEqual(['a', 'b']);
    // a seat no longer in the chain changes nothing
    expect(order(['a', 'b'], byUsage, { stickySeat: 'gone' })).toEqual(['a', 'b']);
  });
});
