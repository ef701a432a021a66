import type { ServerResponse } from 'node:http';

/** Something in flight upstream that the agent's hang-up must stop. */
export interface Cancellable {
  cancel(): void;
}

/**
 * The agent's end of one request: whether it is still there, and which
 * upstream request to cancel the moment it leaves. A plain flag and one
 * `close` listener: an AbortController (an EventTarget and a signal) per
 * request was a measurable share of the hot path.
 */
export class AgentLink {
  private left = false;
  private upstream: Cancellable | null = null;
  /** a backoff in progress, cut short when the agent leaves */
  private onLeave: (() => void) | null = null;

  constructor(res: ServerResponse) {
    // 'close' also follows a response that went out whole; only an unfinished one means the agent hung up
    res.once('close', () => {
      if (!res.writableFinished) this.leave();
    });
    if (res.destroyed || res.socket?.destroyed !== false) this.left = true;
  }

  /** true once the agent hung up: nothing more goes to it, and no further attempt starts */
  get gone(): boolean {
    return this.left;
  }

  /** The upstream request now in flight for this agent; cancelled at once if the agent already left. */
  track(upstream: Cancellable): void {
    this.upstream = upstream;
    if (this.left) upstream.cancel();
  }

  /** Waits `ms` (a retry's backoff), or less: it ends the moment the agent leaves. */
  wait(ms: number): Promise<void> {
    if (this.left) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.onLeave = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.onLeave = done;
    });
  }

  private leave(): void {
    this.left = true;
    this.upstream?.cancel();
    this.onLeave?.();
  }
}
