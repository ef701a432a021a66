import { randomUUID } from 'node:crypto';
import type { PlanEntry } from '../breaker/types.js';
import type { DaemonContext } from '../context.js';
import type { FamilyChain, PreparedRoute } from '../proxy/route-table.js';
import { drainOrder } from './drain.js';
import { LatencyTracker } from './latency.js';
import type { Session } from './session-key.js';
import { SessionSeats } from './session-seats.js';

/**
 * A request's base order by its route's `balance` (`ordered`, `spread`,
 * `cost`, `latency`, and `drain`: docs/seats.md), which the breaker then
 * reorders — and what the orders learn from the answers: time to first
 * byte (`latency`), and which seat served each session (`drain`).
 */
export class BaseOrders {
  /** time to first byte of ok attempts, for `balance: latency` */
  readonly latency = new LatencyTracker();
  private readonly sessions: SessionSeats;

  constructor(private readonly ctx: Pick<DaemonContext, 'clock' | 'usage' | 'seats'>) {
    this.sessions = new SessionSeats(ctx.clock);
  }

  of(route: PreparedRoute, chain: FamilyChain, session: Session | null): readonly PlanEntry[] {
    switch (route.balance) {
      case 'ordered':
        return chain.entries;
      case 'spread': {
        // no session: a fresh random key, so requests spread one by one
        const order = chain.rendezvous!.order(session?.key ?? randomUUID());
        return order.map((i) => chain.entries[i]!);
      }
      case 'cost':
        return chain.byCost!;
      case 'latency':
        return this.latency.order(chain.entries);
      case 'drain':
        return drainOrder(chain.entries, {
          usageOf: (seat) => this.ctx.usage.liveOf(seat),
          reservePctOf: (seat) => this.ctx.seats.get(seat)?.reserve_pct ?? 0,
          now: this.ctx.clock.now(),
          stickySeat: session === null ? null : this.sessions.seatOf(session.tag),
        });
    }
  }

  /** A request was answered by `servedBy` (`seat/model`, or null) with `status`. */
  answered(route: PreparedRoute, session: Session | null, servedBy: string | null, status: number): void {
    if (route.balance !== 'drain' || session === null || servedBy === null || status >= 300) return;
    // seat ids hold no `/`: the served target's seat is what precedes the first one
    this.sessions.served(session.tag, servedBy.slice(0, servedBy.indexOf('/')));
  }
}
