/**
 * Consecutive model errors: per target and per provider model (the same
 * model failing on one upstream, counted across its seats). A failure more than `windowMs` after the previous one
 * restarts the count; a success resets it.
 */
export interface Streak {
  count: number;
  lastFailureAt: number | null;
  /** the seats whose failures make up the current count (provider streaks only) */
  readonly seats: Set<string>;
}

export class Streaks {
  private readonly streaks = new Map<string, Streak>();

  constructor(private readonly windowMs: number) {}

  /** One more failure; returns the streak after it. */
  fail(name: string, seat: string, now: number): Streak {
    let s = this.streaks.get(name);
    if (s === undefined) {
      s = { count: 0, lastFailureAt: null, seats: new Set() };
      this.streaks.set(name, s);
    }
    if (s.lastFailureAt !== null && now - s.lastFailureAt > this.windowMs) {
      s.count = 0;
      s.seats.clear();
    }
    s.count++;
    s.lastFailureAt = now;
    s.seats.add(seat);
    return s;
  }

  /** Returns whether there was a count to reset. */
  reset(name: string): boolean {
    const s = this.streaks.get(name);
    if (s === undefined) return false;
    this.streaks.delete(name);
    return s.count > 0;
  }

  /** The count as of `now`: 0 once the window since the last failure has passed. */
  count(name: string, now: number): number {
    const s = this.streaks.get(name);
    if (s === undefined || s.lastFailureAt === null) return 0;
    return now - s.lastFailureAt > this.windowMs ? 0 : s.count;
  }

  get(name: string): Streak | undefined {
    return this.streaks.get(name);
  }

  entries(): IterableIterator<[string, Streak]> {
    return this.streaks.entries();
  }

  /** Sets a streak as another source (a restored file, a shared store) holds it. */
  set(name: string, count: number, lastFailureAt: number | null, seats: Iterable<string> = []): void {
    if (count <= 0) this.streaks.delete(name);
    else this.streaks.set(name, { count, lastFailureAt, seats: new Set(seats) });
  }
}
