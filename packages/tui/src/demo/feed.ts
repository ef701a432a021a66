import type { Counters, DaemonEvent } from '@routeplane/shared';
import { connectControl, type ControlClient } from '../client/control-client.js';
import { countEvent, emptyTally, type EventTally } from './log/tally.js';

/**
 * The demo's own view of the daemon, through the control socket like any
 * client: every event is counted (for the summary) and handed on (to print).
 */
export class DemoFeed {
  readonly tally: EventTally = emptyTally();
  private readonly decided = new Set<string>();
  private waiter: (() => void) | null = null;
  private lost: Error | null = null;

  private constructor(private readonly client: ControlClient) {}

  static async connect(socketPath: string, onEvent: (event: DaemonEvent) => void, onLost: (error: Error) => void): Promise<DemoFeed> {
    const client = await connectControl(socketPath);
    const feed = new DemoFeed(client);
    client.onClose((error) => {
      if (error) {
        feed.lost = error;
        onLost(error);
      }
      feed.waiter?.();
    });
    await client.subscribe((event) => {
      if (event.type === 'overflow') return;
      countEvent(feed.tally, event);
      if (event.type === 'decision') feed.decided.add(event.request_id);
      onEvent(event);
      feed.waiter?.();
    });
    return feed;
  }

  /** Waits until a decision for every id has arrived (or `timeoutMs`); the ids still missing. */
  async waitForDecisions(ids: ReadonlySet<string>, timeoutMs: number): Promise<string[]> {
    const missing = () => [...ids].filter((id) => !this.decided.has(id));
    if (missing().length === 0 || this.lost) return missing();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.waiter = () => {
        if (missing().length === 0 || this.lost) done();
      };
    });
    this.waiter = null;
    return missing();
  }

  async counters(): Promise<Counters | null> {
    try {
      return (await this.client.request('snapshot')).counters;
    } catch {
      return null;
    }
  }

  close(): void {
    this.client.close();
  }
}
