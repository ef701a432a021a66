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
 */
export class BreakerSync {
  private readonly order: Ordered<SharedChange>;
  /** the counts of the last shared copy seen (or sent), per breaker */
  private readonly base = new Map<string, Counts>();
  /** when each breaker this daemon knew last tripped: an end says which trip it ended */
  private readonly since = new Map<string, number>();
  /** the last shared copy applied, per breaker */
  private readonly last = new Map<string, SharedChange>();

  constructor(private readonly link: EngineLink) {
    this.order = new Ordered((key, change) => this.apply(key, change));
  }

  /** A local change is about to be written: the counts to add to the shared copy. */
  outgoing(key: string, b: Breaker | null): Counts {
    if (b === null) {
      this.base.delete(key);
      return { refused: 0, skipped: 0 };
    }
    this.since.set(key, b.since);
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
    this.last.set(key, change);
    const local = this.link.live(key);
    const shared = change.breaker;
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
