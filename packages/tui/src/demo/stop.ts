export type StopReason = 'duration' | 'SIGINT' | 'SIGTERM' | 'SIGHUP' | 'quit' | 'output_closed';

/**
 * Everything that ends a demo, folded into one promise: --duration, Ctrl-C,
 * SIGTERM, SIGHUP (the terminal closed), `q` in top. A second signal while
 * stopping calls `onImpatient` (cut in-flight requests now, don't wait).
 */
export class StopController {
  readonly reason: Promise<StopReason>;
  private readonly controller = new AbortController();
  private resolve!: (reason: StopReason) => void;
  private timer: NodeJS.Timeout | null = null;
  private onImpatient: () => void = () => {};
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.controller.signal.aborted) this.onImpatient();
    else this.stop(signal === 'SIGTERM' || signal === 'SIGHUP' ? signal : 'SIGINT');
  };

  constructor(durationSec: number | null) {
    this.reason = new Promise((resolve) => (this.resolve = resolve));
    if (durationSec !== null) this.timer = setTimeout(() => this.stop('duration'), durationSec * 1000);
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    process.on('SIGHUP', this.onSignal);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  stop(reason: StopReason): void {
    if (this.controller.signal.aborted) return;
    this.controller.abort();
    this.resolve(reason);
  }

  whenImpatient(callback: () => void): void {
    this.onImpatient = callback;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    process.removeListener('SIGINT', this.onSignal);
    process.removeListener('SIGTERM', this.onSignal);
    process.removeListener('SIGHUP', this.onSignal);
  }
}
