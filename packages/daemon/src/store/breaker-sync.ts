import type { Breaker, BreakerAction } from '@routeplane/shared';
import type { EngineLink } from './engine-link.js';
import { Ordered } from './ordered.js';

/** A shared copy of one breaker as a change, a write's answer or a full read gives it. */
export interface SharedChange {
  readonly rev: number;
  /** null: the breaker ended */
  readonly breaker: Breaker | null;
  /** the action that made it; null for a full read (the action is inferred) */
  readonly action: BreakerAction | null;
  readonly reason: string;
  readonly origin: string;
  /** an end replayed after an outage: the `since` of the trip it ended (a newer local trip stands) */
  readonly endedSince?: number | null;
}

/** An end this daemon made that Redis has not taken: which trip it ended, and how. */
export interface UnsharedEnd {
  readonly since: number;
  readonly action: 'cleared' | 'reset';
  readonly reason: string;
}

interface Counts {
  refused: number;
  skipped: number;
}

/**
 * Keeps this daemon's breakers and the shared copies in step. Shared copies
 * are applied in revision order (ordered.ts) and only when they differ from
 * what the engine holds, so a daemon hearing back its own change announces
 * nothing twice. Refused and skipped counts add up across daemons: each
 * write sends what this daemon counted since the shared copy it last saw, and
 * a shared copy taken in keeps the counts this daemon has not sent yet.
 *
 * An end this daemon made while Redis was away (a reset, a clear by a
 * success) is kept with the `since` of the trip it ended, and given again
 * once Redis is back (`replayEnd`). Until a later trip of that breaker is
 * seen, a shared copy of that trip or an older one — another daemon pushing
 * back what it held through the outage — is not taken in but ended again:
 * a reset given to any daemon applies to all, whenever the others come back.
 */
export class BreakerSync {
  private readonly order: Ordered<SharedChange>;
  /** the counts of the last shared copy seen (or sent), per breaker */
  private readonly base = new Map<string, Counts>();
  /** when each breaker this daemon knew last tripped: an end says which trip it ended */
  private readonly since = new Map<string, number>();
  /** the last shared copy applied, per breaker */
  private readonly last = new Map<string, SharedChange>();
  /** ends Redis has not taken, per breaker (bounded by the configured breakers: one per key) */
  private readonly unshared = new Map<string, UnsharedEnd>();

  constructor(
    private readonly link: EngineLink,
    /** ends `key`'s shared copy if it is the trip `end` ended, or an older one */
    private readonly replayEnd: (key: string, end: UnsharedEnd) => void,
  ) {
    this.order = new Ordered((key, change) => this.apply(key, change));
  }

  /** A breaker changed here while Redis could not be written: its trip time, for an end of it later. */
  noteLocal(key: string, b: Breaker): void {
    this.since.set(key, b.since);
    this.tripped(key, b);
  }

  /** A later trip here stands for itself: an end of an earlier one is not given again. */
  private tripped(key: string, b: Breaker): void {
    const ended = this.unshared.get(key);
    if (ended !== undefined && b.since > ended.since) this.unshared.delete(key);
  }

  /** A breaker ended here and Redis did not take it (away, or the write failed). */
  endedUnshared(key: string, action: 'cleared' | 'reset', reason: string): void {
    const since = this.since.get(key);
    // a trip this daemon never knew the time of cannot be matched: nothing to give again
    if (since === undefined) return;
    const held = this.unshared.get(key);
    if (held === undefined || since >= held.since) this.unshared.set(key, { since, action, reason });
  }

  /** The ends to give again now that Redis is back. */
  unsharedEnds(): Array<[string, UnsharedEnd]> {
    return [...this.unshared.entries()];
  }

  /** A local change is about to be written: the counts to add to the shared copy. */
  outgoing(key: string, b: Breaker | null): Counts {
    if (b === null) {
      this.base.delete(key);
      return { refused: 0, skipped: 0 };
    }
    this.since.set(key, b.since);
    this.tripped(key, b);
    const was = this.base.get(key) ?? { refused: 0, skipped: 0 };
    this.base.set(key, { refused: b.refused_count, skipped: b.skipped_count });
    return { refused: Math.max(0, b.refused_count - was.refused), skipped: Math.max(0, b.skipped_count - was.skipped) };
  }

  /** When the breaker under `key` last tripped, as far as this daemon knew it. */
  sinceOf(key: string): number | null {
    return this.since.get(key) ?? null;
  }

  sent(key: string): void {
    this.order.sent(key);
  }

  answered(key: string, change: SharedChange | null): void {
    this.order.answered(key, change);
  }

  /** The write to `key` failed: what waited behind it is not applied (ordered.ts `failed`). */
  failed(key: string): void {
    this.order.failed(key);
  }

  offer(key: string, change: SharedChange): void {
    this.order.offer(key, change);
  }

  forgetRevisions(): void {
    this.order.forget();
  }

  /**
   * The engine moved a breaker on its own since the last shared copy (it gave
   * back a claim Redis refused because another daemon holds it): the shared
   * copy is the truth, taken in again.
   */
  reconcile(key: string): void {
    const last = this.last.get(key);
    if (last !== undefined) this.apply(key, last);
  }

  private apply(key: string, change: SharedChange): void {
    const local = this.link.live(key);
    const shared = change.breaker;
    // a replayed end of an older trip than the one held here leaves this one
    if (shared === null && local !== undefined && change.endedSince != null && local.since > change.endedSince) return;
    const ended = this.unshared.get(key);
    if (shared !== null && ended !== undefined) {
      if (shared.since <= ended.since) {
        this.replayEnd(key, ended);
        return;
      }
      this.unshared.delete(key);
    }
    this.last.set(key, change);
    if (shared === null) {
      this.base.delete(key);
      this.last.delete(key);
      if (local !== undefined) this.link.install(key, null, change.action === 'reset' ? 'reset' : 'cleared', change.reason, change.origin);
      return;
    }
    if (!this.link.knows(shared)) return;
    const was = this.base.get(key) ?? { refused: 0, skipped: 0 };
    const copy: Breaker = {
      ...shared,
      refused_count: shared.refused_count + (local === undefined ? 0 : Math.max(0, local.refused_count - was.refused)),
      skipped_count: shared.skipped_count + (local === undefined ? 0 : Math.max(0, local.skipped_count - was.skipped)),
    };
    this.base.set(key, { refused: shared.refused_count, skipped: shared.skipped_count });
    this.since.set(key, shared.since);
    if (local !== undefined && sameBreaker(local, copy)) return;
    const action = local === undefined ? 'tripped' : (change.action ?? inferredAction(local, copy));
    this.link.install(key, copy, action, change.reason, change.origin);
  }
}

/** What a full read's copy is to the local one, in the words of a breaker event. */
function inferredAction(local: Breaker, shared: Breaker): BreakerAction {
  if (shared.failed_probes > local.failed_probes) return 'probe_failed';
  if (shared.phase !== local.phase)
    return shared.phase === 'probing' ? 'probe_claimed' : shared.phase === 'probe_ready' ? 'probe_ready' : 'tripped';
  if (shared.until !== local.until) return 'extended';
  return shared.skipped_count !== local.skipped_count ? 'skipped' : 'refused';
}

export function sameBreaker(a: Breaker, b: Breaker): boolean {
  return (
    a.phase === b.phase &&
    a.since === b.since &&
    a.until === b.until &&
    a.reset_at === b.reset_at &&
    a.cooldown_ms === b.cooldown_ms &&
    a.failed_probes === b.failed_probes &&
    a.refused_count === b.refused_count &&
    a.skipped_count === b.skipped_count &&
    a.claimed_at === b.claimed_at &&
    JSON.stringify(a.signal) === JSON.stringify(b.signal)
  );
}
