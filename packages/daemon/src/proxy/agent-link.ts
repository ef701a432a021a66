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

  private leave(): void {
    this.left = true;
    this.upstream?.cancel();
  }
}
