import type { Breaker, BreakerAction } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { BreakerSync, type SharedChange } from '../../src/store/breaker-sync.js';
import type { EngineLink } from '../../src/store/engine-link.js';
import { Ordered } from '../../src/store/ordered.js';
import { seatBreaker } from '../helpers/seat-breaker.js';

/**
 * The order shared copies are taken in (store/ordered.ts, store/breaker-sync.ts),
 * without Redis: the copies and the writes' answers are handed in as the
 * connection would hand them, in the interleavings a real outage can give.
 */

function recorder(): { ordered: Ordered<{ rev: number }>; applied: number[] } {
  const applied: number[] = [];
  return { ordered: new Ordered<{ rev: number }>((_id, v) => applied.push(v.rev)), applied };
}

describe('Ordered', () => {
  it('applies copies in revision order and drops one older than the last applied', () => {
    const { ordered, applied } = recorder();
    ordered.offer('k', { rev: 2 });
    ordered.offer('k', { rev: 1 });
    ordered.offer('k', { rev: 3 });
    expect(applied).toEqual([2, 3]);
  });

  it('holds a copy that arrives while a write is out until the answer, then applies whichever is newer', () => {
    const { ordered, applied } = recorder();
    ordered.sent('k');
    ordered.offer('k', { rev: 4 });
    expect(applied).toEqual([]);
    ordered.answered('k', { rev: 5 });
    expect(applied).toEqual([5]);

    ordered.sent('k');
    ordered.offer('k', { rev: 7 });
    ordered.answered('k', { rev: 6 });
    expect(applied).toEqual([5, 6, 7]);
  });

  it('a failed write drops what waited behind it (Redis may not hold the change), and later copies still apply', () => {
    const { ordered, applied } = recorder();
    ordered.sent('k');
    ordered.offer('k', { rev: 1 });
    ordered.failed('k');
    expect(applied).toEqual([]);
    ordered.offer('k', { rev: 2 });
    expect(applied).toEqual([2]);
  });

  it('with two writes out, one failing keeps the other’s answer and what waits for it', () => {
    const { ordered, applied } = recorder();
    ordered.sent('k');
    ordered.sent('k');
    ordered.offer('k', { rev: 3 });
    ordered.failed('k');
    ordered.offer('k', { rev: 5 });
    expect(applied).toEqual([]);
    ordered.answered('k', { rev: 4 });
    expect(applied).toEqual([4, 5]);
  });
});

/** An engine that only holds breakers, and records what the sync installed. */
function fakeEngine(): { link: EngineLink; table: Map<string, Breaker>; installed: BreakerAction[] } {
  const table = new Map<string, Breaker>();
  const installed: BreakerAction[] = [];
  const link: EngineLink = {
    live: (key) => table.get(key),
    liveBreakers: () => [...table.values()],
    knows: () => true,
    install(key, b, action) {
      installed.push(action);
      if (b === null) table.delete(key);
      else table.set(key, b);
    },
    streaks: () => [],
    streakSeats: () => [],
    setStreak: () => {},
    limits: () => ({ maxCooldownMs: 3_600_000, windowMs: 60_000 }),
  };
  return { link, table, installed };
}

const copy = (rev: number, breaker: Breaker | null): SharedChange => ({ rev, breaker, action: null, reason: 'shared', origin: 'other' });

const KEY = 'credit:a';
const open = seatBreaker('credit', 1_000);
const ready = { ...open, phase: 'probe_ready' as const, until: 2_000 };

/** A change made here (null: the breaker ended), and its write going out, as redis-store.ts does it. */
function changeHere(sync: BreakerSync, table: Map<string, Breaker>, b: Breaker | null): void {
  if (b === null) table.delete(KEY);
  else table.set(KEY, b);
  sync.outgoing(KEY, b);
  sync.sent(KEY);
}

describe('BreakerSync when Redis goes away with writes out', () => {
  it('a probe made ready here stays ready when its write fails behind the trip’s own copy', () => {
    const { link, table, installed } = fakeEngine();
    const sync = new BreakerSync(link, () => {});
    // the trip went out, and then the probe (made ready by hand) before the trip's answer came
    changeHere(sync, table, open);
    changeHere(sync, table, ready);
    // the trip's answer (the shared copy, still open) waits behind the probe's write, which then fails
    sync.answered(KEY, copy(1, open));
    sync.failed(KEY);
    expect(table.get(KEY)?.phase).toBe('probe_ready');
    expect(installed).toEqual([]);
  });

  it('a reset here is not undone by the copy that waited behind its failed write', () => {
    const { link, table, installed } = fakeEngine();
    const sync = new BreakerSync(link, () => {});
    table.set(KEY, open);
    sync.offer(KEY, copy(1, open));
    // reset: the breaker ends here, its end goes out, another daemon's older push arrives meanwhile
    changeHere(sync, table, null);
    sync.offer(KEY, copy(2, { ...open, refused_count: 3 }));
    sync.failed(KEY);
    sync.endedUnshared(KEY, 'reset', 'reset by hand');
    expect(table.has(KEY)).toBe(false);
    expect(installed).toEqual([]);
  });

  it('when the write is answered, its copy and a newer one that waited are taken in', () => {
    const { link, table } = fakeEngine();
    const sync = new BreakerSync(link, () => {});
    changeHere(sync, table, ready);
    sync.offer(KEY, copy(3, { ...ready, phase: 'probing', claimed_at: 2_100 }));
    sync.answered(KEY, copy(2, ready));
    expect(table.get(KEY)).toMatchObject({ phase: 'probing', claimed_at: 2_100 });
  });
});

describe('BreakerSync when an end is answered', () => {
  it('a reset right after a trip is not undone by the trip’s answer arriving behind it', () => {
    const { link, table, installed } = fakeEngine();
    const sync = new BreakerSync(link, () => {});
    changeHere(sync, table, open);
    // reset before the trip's write was answered
    changeHere(sync, table, null);
    sync.answered(KEY, copy(1, open));
    sync.answered(KEY, { rev: 2, breaker: null, action: 'reset', reason: 'reset by hand', origin: 'this' });
    expect(table.has(KEY)).toBe(false);
    expect(installed).toEqual([]);
  });
});
