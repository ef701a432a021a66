import type { DaemonEvent, UsageEvent } from '@routeplane/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../src/events/bus.js';
import { USAGE_EVENT_WINDOW_MS, UsageBook } from '../../src/usage/usage-book.js';

const fiveHour = (utilization: number) => [{ name: '5h', utilization, reset_at: 9_000_000, status: 'allowed' }];

describe('usage events (coalesced per seat)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the first change goes out at once, later ones once at the end of the window; snapshots show what went out', () => {
    const bus = new EventBus(() => Date.now());
    const events: DaemonEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const book = new UsageBook(bus, () => Date.now());
    const usage = () => events.filter((e): e is UsageEvent => e.type === 'usage');

    book.observe('a', fiveHour(0.5), Date.now());
    expect(usage().map((e) => [e.seat, e.usage.windows[0]!.utilization])).toEqual([['a', 0.5]]);
    book.observe('a', fiveHour(0.6), Date.now());
    book.observe('a', fiveHour(0.7), Date.now());
    book.observe('b', fiveHour(0.1), Date.now()); // another seat: its own window
    expect(usage()).toHaveLength(2);
    // the background reserve reads the live value; a snapshot what was announced
    expect(book.liveOf('a')!.windows[0]!.utilization).toBe(0.7);
    expect(book.shownOf('a')!.windows[0]!.utilization).toBe(0.5);

    vi.advanceTimersByTime(USAGE_EVENT_WINDOW_MS);
    expect(usage().map((e) => [e.seat, e.usage.windows[0]!.utilization])).toEqual([
      ['a', 0.5],
      ['b', 0.1],
      ['a', 0.7],
    ]);
    expect(book.shownOf('a')!.windows[0]!.utilization).toBe(0.7);
    book.observe('a', [], Date.now()); // an answer without usage headers changes nothing
    vi.advanceTimersByTime(USAGE_EVENT_WINDOW_MS * 3);
    expect(usage()).toHaveLength(3);
    book.stop();
  });
});
