import type { Socket } from 'node:net';
import { encodeLine, type DaemonEvent, type StreamedEvent } from '@routeplane/shared';

export interface SubscriberLimits {
  /** events go straight into the socket while its unsent buffer is below this many bytes */
  socketBufferBytes: number;
  /** past this many bytes waiting behind a full socket, the subscriber is dropped */
  maxQueuedBytes: number;
  /** … or past this many events */
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

// The bus hands the same event object to every listener in turn, so one
// remembered encoding serializes each event once however many subscribers listen.
let lastEvent: DaemonEvent | null = null;
let lastLine = '';
export function encodeEventLine(event: DaemonEvent): string {
  if (event !== lastEvent) {
    lastLine = encodeLine({ event });
    lastEvent = event;
  }
  return lastLine;
}

type SubscriberState = 'streaming' | 'overflowed' | 'stopped';

/**
 * One subscribed connection's outbound event stream with a bounded queue.
 * `push` never blocks and never waits: routing emits events synchronously,
 * so a slow reader must cost it nothing but a bounded amount of memory. Past
 * the bound the subscriber gets a final overflow line and is closed; the
 * client reconnects and takes a fresh snapshot.
 */
export class Subscriber {
  private readonly queue: string[] = [];
  private head = 0;
  private queuedBytes = 0;
  private state: SubscriberState = 'streaming';
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

  private get queuedEvents(): number {
    return this.queue.length - this.head;
  }

  push(event: DaemonEvent): void {
    if (this.state !== 'streaming') return;
    const line = encodeEventLine(event);
    if (this.queuedEvents === 0 && this.socket.writableLength < this.socketBound) {
      this.socket.write(line);
      return;
    }
    this.queue.push(line);
    this.queuedBytes += Buffer.byteLength(line);
    if (this.queuedEvents > this.limits.maxQueuedEvents || this.queuedBytes > this.limits.maxQueuedBytes) {
      this.overflow();
      return;
    }
    this.waitForDrain();
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

  private flush(): void {
    if (this.state !== 'streaming') return;
    while (this.queuedEvents > 0 && this.socket.writableLength < this.socketBound) {
      const line = this.queue[this.head] as string;
      this.queue[this.head] = '';
      this.head += 1;
      this.queuedBytes -= Buffer.byteLength(line);
      this.socket.write(line);
    }
    if (this.queuedEvents === 0) this.dropQueue();
    else {
      // keep the array from growing forever while its front is consumed
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      this.waitForDrain();
    }
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
    this.queue.length = 0;
    this.head = 0;
    this.queuedBytes = 0;
  }
}
