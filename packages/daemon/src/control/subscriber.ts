import type { Socket } from 'node:net';
import { encodeLine, type DaemonEvent, type StreamedEvent } from '@routeplane/shared';
import { encodeEventLine, eventLineBytes, EVENT_WRITE_WINDOW_MS } from '../events/event-line.js';

export interface SubscriberLimits {
  /** each batch of events goes into the socket while its unsent buffer is below this many bytes */
  socketBufferBytes: number;
  /** past this many bytes waiting beyond that, the subscriber is dropped */
  maxQueuedBytes: number;
  /** … or past this many events waiting to be written */
  maxQueuedEvents: number;
  /** a dropped subscriber that never reads its overflow line is destroyed after this */
  lingerMs: number;
}

/**
 * Worst case per subscriber: socketBufferBytes + maxQueuedBytes (~2.25 MiB),
 * far more than a reading client ever lags by, far less than a stalled one
 * would cost without a bound.
 */
export const DEFAULT_SUBSCRIBER_LIMITS: SubscriberLimits = {
  socketBufferBytes: 256 * 1024,
  maxQueuedBytes: 2 * 1024 * 1024,
  maxQueuedEvents: 10_000,
  lingerMs: 30_000,
};

export const OVERFLOW_LINE = encodeLine({ event: { type: 'overflow' } satisfies StreamedEvent });

type SubscriberState = 'streaming' | 'overflowed' | 'stopped';

/**
 * One subscribed connection's outbound event stream with a bounded queue.
 * `push` never blocks and never waits: routing emits events synchronously,
 * so a slow reader must cost it nothing but a bounded amount of memory. Past
 * the bound the subscriber gets a final overflow line and is closed; the
 * client reconnects and takes a fresh snapshot.
 *
 * Events are written in batches, one write per EVENT_WRITE_WINDOW_MS at
 * most: a socket write per event per subscriber was a syscall each, a visible
 * cost to every proxied request.
 */
export class Subscriber {
  /** lines not yet handed to the socket: this batch's, or those waiting for 'drain' */
  private queue: string[] = [];
  private queuedBytes = 0;
  private state: SubscriberState = 'streaming';
  private flushScheduled = false;
  private waitingForDrain = false;
  private lingerTimer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;
  /** never below the socket's own high-water mark, or 'drain' would never come */
  private readonly socketBound: number;

  constructor(
    private readonly socket: Socket,
    subscribe: (listener: (event: DaemonEvent) => void) => () => void,
    private readonly limits: SubscriberLimits = DEFAULT_SUBSCRIBER_LIMITS,
  ) {
    this.socketBound = Math.max(limits.socketBufferBytes, socket.writableHighWaterMark);
    this.unsubscribe = subscribe((event) => this.push(event));
  }

  get overflowed(): boolean {
    return this.state === 'overflowed';
  }

  push(event: DaemonEvent): void {
    if (this.state !== 'streaming') return;
    this.queue.push(encodeEventLine(event));
    this.queuedBytes += eventLineBytes(event);
    // Bounded as before batching: what the socket may hold plus the queue's own allowance.
    if (
      this.queue.length > this.limits.maxQueuedEvents ||
      this.socket.writableLength + this.queuedBytes > this.socketBound + this.limits.maxQueuedBytes
    ) {
      this.overflow();
      return;
    }
    if (!this.flushScheduled && !this.waitingForDrain) {
      this.flushScheduled = true;
      setTimeout(() => {
        this.flushScheduled = false;
        this.flush();
      }, EVENT_WRITE_WINDOW_MS);
    }
  }

  /** The connection is gone or the server is closing: let go of everything. */
  stop(): void {
    if (this.state === 'stopped') return;
    if (this.state === 'streaming') this.unsubscribe();
    this.state = 'stopped';
    this.dropQueue();
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
  }

  /**
   * Hands everything queued to the socket in one write, unless the socket is
   * full: then after 'drain'. The connection calls it before each reply, so
   * events emitted before a reply (a reset's own events) reach the client first.
   */
  flush(): void {
    if (this.state !== 'streaming' || this.queue.length === 0 || this.waitingForDrain) return;
    if (this.socket.writableLength >= this.socketBound) {
      this.waitForDrain();
      return;
    }
    const text = this.queue.length === 1 ? this.queue[0]! : this.queue.join('');
    this.dropQueue();
    this.socket.write(text);
  }

  private waitForDrain(): void {
    if (this.waitingForDrain) return;
    this.waitingForDrain = true;
    // The socket is at or past socketBound ≥ its high-water mark, so the last
    // write returned false and 'drain' is due once the kernel takes the bytes.
    this.socket.once('drain', () => {
      this.waitingForDrain = false;
      this.flush();
    });
  }

  private overflow(): void {
    this.unsubscribe();
    this.state = 'overflowed';
    this.dropQueue();
    // Lines already in the socket buffer are whole, so the overflow line starts a line of its own.
    this.socket.end(OVERFLOW_LINE);
    this.lingerTimer = setTimeout(() => this.socket.destroy(), this.limits.lingerMs);
    this.lingerTimer.unref();
  }

  private dropQueue(): void {
    this.queue = [];
    this.queuedBytes = 0;
  }
}
