import { type Breaker, type BreakerAction, type Signal, v1Scope } from '@routeplane/shared';
import type { BreakerStore } from './store.js';
import type { BreakerChange } from './types.js';

/** A refused or skipped count is announced at most once per breaker in this window. */
export const COUNT_EVENT_WINDOW_MS = 250;

/** One active breaker: its live state, which only the engine mutates, and what was last announced of it. */
export interface Held {
  /** live: counts move between announcements */
  readonly b: Breaker;
  /** bumps on every claim, so a stale probe cannot resolve a newer one */
  claimId: number;
  /** the count announcement window: when the last refused/skipped event went out */
  countEventAt: number;
  /** a count changed inside the window; announced at its end */
  countPending: 'refused' | 'skipped' | null;
}

/**
 * Every active breaker by key, and the one place breaker events are made: a
 * change is announced with the whole breaker after it (or null when it
 * ended), and what was announced is kept as the published copy. Snapshots
 * read the published copies, so a snapshot plus the events after its `seq`
 * is exactly the next snapshot, counts included.
 */
export class BreakerTable {
  private readonly live = new Map<string, Held>();
  private readonly published = new Map<string, Breaker>();

  constructor(
    private readonly sink: (change: BreakerChange) => void,
    private readonly store: BreakerStore,
    private readonly origin: string,
    /** a count became pending: the daemon's timer must look at `nextCountDue` (no event says so) */
    private readonly wake: () => void = () => {},
  ) {}

  get size(): number {
    return this.live.size;
  }

  get(key: string): Held | undefined {
    return this.live.get(key);
  }

  values(): IterableIterator<Held> {
    return this.live.values();
  }

  publishedBreakers(): Breaker[] {
    return [...this.published.values()];
  }

  /** A new breaker. */
  add(b: Breaker, reason: string, signal: Signal | null, now: number): Held {
    const held: Held = { b, claimId: 0, countEventAt: now - COUNT_EVENT_WINDOW_MS, countPending: null };
    this.live.set(b.key, held);
    this.announce(held, 'tripped', reason, signal);
    return held;
  }

  /** A breaker taken in from elsewhere (a state file, another daemon), announced with that source's origin. */
  insert(b: Breaker, action: BreakerAction, reason: string, origin: string): Held {
    const held: Held = { b, claimId: -1, countEventAt: Number.NEGATIVE_INFINITY, countPending: null };
    this.live.set(b.key, held);
    this.announce(held, action, reason, b.signal, origin);
    return held;
  }

  /** Announces a change the caller made to `held.b`. */
  announce(held: Held, action: BreakerAction, reason: string, signal: Signal | null = null, origin = this.origin): void {
    const b = held.b;
    const copy: Breaker = { ...b, signal: b.signal === null ? null : { ...b.signal } };
    this.published.set(b.key, copy);
    // whatever the action, the announced copy carries the counts: nothing is pending any more
    held.countPending = null;
    this.sink({
      type: 'breaker',
      action,
      scope: v1Scope(b.kind, b.scope),
      seat: b.seat,
      model: b.model,
      reason,
      cooldown_ms: b.cooldown_ms,
      until: b.until,
      failed_probes: b.failed_probes,
      key: b.key,
      breaker: copy,
      signal,
      origin,
    });
    if (origin === this.origin) this.store.changed(b.key, copy, action, reason);
  }

  /** The breaker is over: cleared by a success or a deadline, or reset. */
  end(key: string, action: 'cleared' | 'reset', reason: string, origin = this.origin): boolean {
    const held = this.live.get(key);
    if (held === undefined) return false;
    this.live.delete(key);
    this.published.delete(key);
    const b = held.b;
    this.sink({
      type: 'breaker',
      action,
      scope: v1Scope(b.kind, b.scope),
      seat: b.seat,
      model: b.model,
      reason,
      cooldown_ms: null,
      until: null,
      failed_probes: 0,
      key,
      breaker: null,
      signal: null,
      origin,
    });
    if (origin === this.origin) this.store.changed(key, null, action, reason);
    return true;
  }

  /** A refused or skipped count moved: announced at once, or at the end of the breaker's window. */
  counted(held: Held, which: 'refused' | 'skipped', now: number): void {
    if (now - held.countEventAt >= COUNT_EVENT_WINDOW_MS) {
      held.countEventAt = now;
      this.announce(held, which, which === 'refused' ? 'failed while open' : 'background work skipped');
    } else if (held.countPending === null) {
      held.countPending = which;
      this.wake();
    } else held.countPending = which;
  }

  /** The earliest moment a pending count is due, or Infinity. */
  nextCountDue(): number {
    let next = Number.POSITIVE_INFINITY;
    for (const held of this.live.values()) {
      if (held.countPending !== null) next = Math.min(next, held.countEventAt + COUNT_EVENT_WINDOW_MS);
    }
    return next;
  }

  /** Announces every count whose window has ended. */
  flushCounts(now: number): void {
    for (const held of this.live.values()) {
      const which = held.countPending;
      if (which === null || now < held.countEventAt + COUNT_EVENT_WINDOW_MS) continue;
      held.countEventAt = now;
      this.announce(held, which, which === 'refused' ? 'failed while open' : 'background work skipped');
    }
  }

  /** Drops every breaker without a word: only for a fresh table (restore) — never for live routing. */
  clear(): void {
    this.live.clear();
    this.published.clear();
  }
}
