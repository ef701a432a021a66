import type { StateFile } from '@routeplane/shared';

export interface SaverOptions {
  /** how long changes are gathered before one save: bursts cost one write, and a change is on disk well within 1 s */
  delayMs: number;
  capture(): StateFile;
  write(state: StateFile): Promise<void>;
  /** a failed save is tried again after this long */
  retryMs: number;
  /** a save failed: said once per distinct reason until a save succeeds again */
  onError(message: string): void;
}

/**
 * Saves the state at most `delayMs` after a change (plus the time of a write
 * already under way), one write at a time, and a last time on close. The
 * state is captured when the write starts, so a save never carries a
 * half-applied change and the last save carries the last one.
 */
export class StateSaver {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private dirty = false;
  private closed = false;
  private lastError: string | null = null;

  constructor(private readonly opts: SaverOptions) {}

  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    this.schedule();
  }

  /** The last save: waits for one under way, then writes the state as it is now. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelTimer();
    await this.writing;
    await this.save();
  }

  /** Stops without a last save (a daemon that never finished starting). */
  stop(): void {
    this.closed = true;
    this.cancelTimer();
  }

  private schedule(delayMs = this.opts.delayMs): void {
    if (this.timer !== null || this.writing !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.save().then((saved) => {
        this.writing = null;
        if (this.dirty && !this.closed) this.schedule(saved ? this.opts.delayMs : this.opts.retryMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  /** Whether the state reached the file; a failure leaves it to be saved again. */
  private async save(): Promise<boolean> {
    this.dirty = false;
    try {
      await this.opts.write(this.opts.capture());
      this.lastError = null;
      return true;
    } catch (err) {
      this.dirty = true;
      const message = (err as Error).message;
      if (message !== this.lastError) this.opts.onError(message);
      this.lastError = message;
      return false;
    }
  }

  private cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
