import type { Clock, Influence } from './types.js';

/**
 * Wakes the engine when its next deadline comes due, so `probe_ready` and
 * rate-limit `cleared` events go out on time rather than when somebody
 * happens to look. Reschedules only when the next deadline moves.
 */
export class BreakerTimers {
  private timer: NodeJS.Timeout | null = null;
  private scheduledFor: number | null = null;
  private stopped = false;

  constructor(
    private readonly influence: Influence,
    private readonly clock: Clock,
  ) {}

  reschedule(): void {
    if (this.stopped || !this.influence.enabled) return;
    const next = this.influence.nextTimerAt();
    if (next === this.scheduledFor) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.scheduledFor = next;
    if (next === null) return;
    // +1 ms so the deadline has passed by the engine's own clock when we wake.
    const delay = Math.max(0, next - this.clock.now() + 1);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.scheduledFor = null;
      this.influence.fireTimers();
      this.reschedule();
    }, delay);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
