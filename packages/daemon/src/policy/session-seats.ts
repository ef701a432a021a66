import type { Clock } from '../breaker/types.js';

/**
 * Which seat last served each session, for `balance: drain` (docs/seats.md):
 * a session keeps to its seat while that seat has headroom. At most
 * `capacity` sessions (the least recently served dropped first); a session
 * not served for `idleMs` is dropped. Memory only: a restart forgets it.
 * Keyed by the session's tag (a hash), never the key itself.
 */
export class SessionSeats {
  /** in the order sessions were last served: the first is the least recent */
  private readonly bySession = new Map<string, { seat: string; at: number }>();

  constructor(
    private readonly clock: Clock,
    readonly capacity = 10_000,
    readonly idleMs = 3_600_000,
  ) {}

  /** The seat that last served `session`, unless it went unserved for too long. */
  seatOf(session: string): string | null {
    const found = this.bySession.get(session);
    if (found === undefined) return null;
    if (this.clock.now() - found.at > this.idleMs) {
      this.bySession.delete(session);
      return null;
    }
    return found.seat;
  }

  /** `session` was just served by `seat`. */
  served(session: string, seat: string): void {
    const now = this.clock.now();
    this.bySession.delete(session);
    this.bySession.set(session, { seat, at: now });
    for (const [oldest, entry] of this.bySession) {
      if (this.bySession.size <= this.capacity && now - entry.at <= this.idleMs) break;
      this.bySession.delete(oldest);
    }
  }

  get size(): number {
    return this.bySession.size;
  }
}
