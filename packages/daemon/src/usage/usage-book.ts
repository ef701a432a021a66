import type { SeatUsage, UsageWindow } from '@routeplane/shared';
import type { EventBus } from '../events/bus.js';
import { mergeUsage } from '../signals/merge-usage.js';

/** A seat's usage is announced at most this often (the first change at once, later ones at the window's end). */
export const USAGE_EVENT_WINDOW_MS = 1000;

/**
 * Each seat's usage windows as the providers report them:
 * the live value, which background reserves read, and the value last
 * announced as a `usage` event, which snapshots and `/metrics` show — so a
 * snapshot plus the events after its `seq` is still exactly the next one.
 * Windows move with almost every answer, so announcements are coalesced.
 */
export class UsageBook {
  private readonly live = new Map<string, SeatUsage>();
  private readonly shown = new Map<string, SeatUsage>();
  private readonly lastAt = new Map<string, number>();
  private readonly pending = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly bus: EventBus,
    private readonly now: () => number,
  ) {}

  /** One answer's windows for `seat`, and whether it was billed as extra usage (null: it did not say); nothing new: nothing changes. */
  observe(seat: string, windows: readonly UsageWindow[], now: number, extraUsage: boolean | null = null): void {
    if (windows.length === 0 && extraUsage === null) return;
    const previous = this.live.get(seat) ?? null;
    const merged = mergeUsage(previous, windows, now, extraUsage);
    if (merged === null || merged === previous) return;
    this.live.set(seat, merged);
    if (this.pending.has(seat)) return;
    const wait = (this.lastAt.get(seat) ?? Number.NEGATIVE_INFINITY) + USAGE_EVENT_WINDOW_MS - this.now();
    if (wait <= 0) {
      this.announce(seat);
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(seat);
      this.announce(seat);
    }, wait);
    timer.unref();
    this.pending.set(seat, timer);
  }

  /** What the provider last said, as it stands now (for the background reserve). */
  liveOf(seat: string): SeatUsage | null {
    return this.live.get(seat) ?? null;
  }

  /** What was last announced (for snapshots and metrics). */
  shownOf(seat: string): SeatUsage | null {
    return this.shown.get(seat) ?? null;
  }

  shownEntries(): IterableIterator<[string, SeatUsage]> {
    return this.shown.entries();
  }

  stop(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private announce(seat: string): void {
    const usage = this.live.get(seat);
    if (usage === undefined) return;
    this.shown.set(seat, usage);
    this.lastAt.set(seat, this.now());
    this.bus.emit({ type: 'usage', seat, usage });
  }
}
