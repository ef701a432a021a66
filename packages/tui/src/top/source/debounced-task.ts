/**
 * Runs an async task "soon" however often it is asked for, but never more
 * than once per `intervalMs` and never twice at once; a request made while it
 * runs schedules one more run after it. The monitor uses it to take a fresh
 * snapshot after breaker events: a burst of 100 events costs one snapshot.
 */
export class DebouncedTask {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private wanted = false;
  private lastRunAt = -Infinity;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  request(): void {
    this.wanted = true;
    if (this.timer || this.running) return;
    const wait = Math.max(0, this.lastRunAt + this.intervalMs - this.clock());
    this.timer = setTimeout(() => void this.run(), wait);
  }

  /** Forgets any pending request (the connection it was for is gone). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wanted = false;
  }

  private async run(): Promise<void> {
    this.timer = null;
    if (!this.wanted) return;
    this.wanted = false;
    this.running = true;
    this.lastRunAt = this.clock();
    try {
      await this.task();
    } catch {
      // The task reports its own failures; a failed run must not stop later ones.
    } finally {
      this.running = false;
    }
    if (this.wanted) this.request();
  }
}
