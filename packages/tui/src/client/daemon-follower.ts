import type { DaemonEvent, DecisionEvent, HelloResult } from '@routeplane/shared';
import { connectControl, type ControlClient } from './control-client.js';

/**
 * Follows a daemon's events the way `tail -F` follows a file: when the
 * daemon goes away it waits for one to answer on the same socket again
 * (with backoff), says whether it is the same daemon or a new one, catches
 * up on the decisions made meanwhile (`recent`), and goes on. Used by
 * `routeplane logs -f`.
 */
export interface FollowerHandlers {
  /** every event, in the order the daemon emitted it; decisions never twice */
  event(event: DaemonEvent): void;
  /** the connection to the daemon ended (it stopped, or dropped this reader) */
  lost(why: string): void;
  /** connected again: `restarted` when it is another daemon than before */
  back(hello: HelloResult, restarted: boolean): void;
}

export interface FollowerOptions {
  /** first wait before trying again; doubles per failed try */
  retryMs?: number;
  /** the longest wait between tries */
  maxRetryMs?: number;
}

/** How many request ids are remembered to print no decision twice: more than `recent` returns. */
const SEEN_MAX = 2000;

export class DaemonFollower {
  private client: ControlClient | null = null;
  private hello: HelloResult | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly seenOrder: string[] = [];
  private readonly seenSet = new Set<string>();
  /** events that arrived before the reader was ready for them */
  private early: DaemonEvent[] | null = [];
  private readonly retryMs: number;
  private readonly maxRetryMs: number;

  constructor(
    private readonly socketPath: string,
    private readonly handlers: FollowerHandlers,
    options: FollowerOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 100;
    this.maxRetryMs = options.maxRetryMs ?? 1000;
  }

  /** The first connection: a daemon that is not there is the caller's error to report. Events wait for `start()`. */
  async connect(): Promise<HelloResult> {
    await this.attach(false);
    return this.hello!;
  }

  /** Marks decisions as already shown (the past read from the decision log). */
  shown(decisions: readonly DecisionEvent[]): void {
    for (const d of decisions) this.remember(d.request_id);
  }

  /** Hands over what arrived meanwhile, then every event as it comes. */
  start(): void {
    const early = this.early ?? [];
    this.early = null;
    for (const event of early) this.deliver(event);
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.client?.close();
  }

  /**
   * One connection: hello, subscribe, and (after a loss) the decisions the
   * daemon made meanwhile before the events that follow them. A failure
   * anywhere here rejects; a loss after it is handled by `onClose`.
   */
  private async attach(catchUp: boolean): Promise<void> {
    const client = await connectControl(this.socketPath);
    if (this.stopped) {
      client.close();
      return;
    }
    // held from here, so that stop() during the steps below closes it (and they reject)
    this.client = client;
    let overflowed = false;
    try {
      const hello = await client.request('hello');
      const waiting: DaemonEvent[] = [];
      let caughtUp = !catchUp;
      await client.subscribe((event) => {
        // the daemon closes this connection next: followed again like any loss
        if (event.type === 'overflow') overflowed = true;
        else if (caughtUp) this.receive(event);
        else waiting.push(event);
      });
      const previous = this.hello;
      const { decisions } = catchUp ? await client.request('recent') : { decisions: [] };
      this.hello = hello;
      if (catchUp) {
        this.handlers.back(hello, previous === null || previous.pid !== hello.pid || previous.started_at !== hello.started_at);
        for (const d of decisions) this.receive(d);
        caughtUp = true;
        for (const event of waiting.splice(0)) this.receive(event);
      }
    } catch (err) {
      client.close();
      if (this.client === client) this.client = null;
      throw err;
    }
    // registered last: a connection that ended during the steps above made them reject instead
    client.onClose((error) => {
      if (this.client === client) this.client = null;
      if (this.stopped) return;
      this.handlers.lost(overflowed ? 'it dropped this reader, whose output fell behind' : (error?.message ?? 'closed by the daemon'));
      this.retry(this.retryMs);
    });
  }

  private retry(waitMs: number): void {
    if (this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.attach(true).catch(() => this.retry(Math.min(waitMs * 2, this.maxRetryMs)));
    }, waitMs);
  }

  private receive(event: DaemonEvent): void {
    if (this.early !== null) this.early.push(event);
    else this.deliver(event);
  }

  private deliver(event: DaemonEvent): void {
    if (event.type === 'decision') {
      if (this.seenSet.has(event.request_id)) return;
      this.remember(event.request_id);
    }
    this.handlers.event(event);
  }

  private remember(id: string): void {
    if (this.seenSet.has(id)) return;
    this.seenSet.add(id);
    this.seenOrder.push(id);
    if (this.seenOrder.length > SEEN_MAX) this.seenSet.delete(this.seenOrder.shift()!);
  }
}
