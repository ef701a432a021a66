import { type HelloResult, RECENT_MAX, type StreamedEvent } from '@routeplane/shared';
import type { MonitorStore } from '../store/monitor-store.js';
import type { ConnectMonitorClient, MonitorClient } from './monitor-client.js';
import { probeArgs, type ProbeOutcome } from './probe-request.js';
import { resetArgs, type ResetOutcome, type ResetRequest } from './reset-request.js';

/**
 * Keeps the store fed from the daemon, over protocol v2:
 * connect → `hello` → `subscribe` → `snapshot`, all on one connection and in
 * that order, so that every event newer than the snapshot (`seq` greater than
 * its `seq`) arrives on the subscription after the snapshot reply. Events that
 * arrive before the snapshot is in the store are held and handed over right
 * after it (the store skips those the snapshot already reflects); a snapshot
 * reply and the event lines behind it may come in one read, and the reply's
 * promise settles only after those lines were parsed.
 *
 * Breaker events carry the whole breaker and every count, so nothing is
 * re-polled; only a `reload` event (the configured routes changed, which no
 * event describes) brings a fresh snapshot on the same connection.
 *
 * After the snapshot, `recent` brings the daemon's last decisions, so the
 * log shows its history at once (the store merges them by request id).
 *
 * Usage windows move by `usage` events like breakers do:
 * no snapshot is ever asked for again on a connection but after a reload.
 *
 * When the connection ends (daemon stopped or restarted, or our queue
 * overflowed) the store keeps its last state and shows "disconnected" (since
 * when: countdowns stop there), and we reconnect with a capped backoff (0.5 s
 * doubling to 2 s, so a restarted daemon is live again within about 2 s),
 * taking a fresh snapshot each time. With `waitFor`, a first connection that
 * finds no daemon is not a failure: the store says "waiting" and we keep
 * trying until one appears.
 */
export interface ConnectionManagerOptions {
  connect: ConnectMonitorClient;
  store: MonitorStore;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** wait for a daemon at this socket path when there is none at start, instead of failing */
  waitFor?: { path: string };
  clock?: () => number;
}

export type StartResult = { readonly ok: true } | { readonly ok: false; readonly error: Error };

export interface MonitorActions {
  reset(request: ResetRequest): Promise<ResetOutcome>;
  probe(seat: string, model?: string): Promise<ProbeOutcome>;
}

/** The protocol this monitor speaks; a daemon without it cannot tell it what it needs. */
const PROTOCOL = 2;

/** One connection's feed: events held while a snapshot is on its way, and the snapshot's seq. */
interface Feed {
  readonly client: MonitorClient;
  /** non-null while a snapshot is awaited: events wait here for it */
  held: StreamedEvent[] | null;
  snapshotSeq: number;
  /** a reload came while a snapshot was on its way: take one more after it */
  again: boolean;
}

export class ConnectionManager implements MonitorActions {
  private readonly connect: ConnectMonitorClient;
  private readonly store: MonitorStore;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly waitFor: { path: string } | null;
  private readonly clock: () => number;
  private feed: Feed | null = null;
  private backoffMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  /** when the live connection was lost; null while live or before the first connection */
  private lostAt: number | null = null;
  private stopped = false;

  constructor(options: ConnectionManagerOptions) {
    this.connect = options.connect;
    this.store = options.store;
    this.initialBackoffMs = options.initialBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    this.waitFor = options.waitFor ?? null;
    this.clock = options.clock ?? Date.now;
    this.backoffMs = this.initialBackoffMs;
  }

  /**
   * The first connection. A failure is returned, not retried (a monitor
   * that cannot talk to its daemon says so and exits), except
   * that with `waitFor` finding no daemon at all means waiting for one.
   */
  async start(): Promise<StartResult> {
    this.store.setConnection({ kind: 'connecting' });
    const failure = await this.attempt();
    if (failure === null) return { ok: true };
    if (this.waitFor && failure.stage === 'connect') {
      this.wait();
      return { ok: true };
    }
    return { ok: false, error: failure.error };
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const feed = this.feed;
    this.feed = null;
    feed?.client.close();
  }

  async reset(request: ResetRequest): Promise<ResetOutcome> {
    const client = this.feed?.client;
    if (!client) return notConnected();
    try {
      const result = await client.request('reset', resetArgs(request));
      return { ok: true, cleared: result.cleared };
    } catch (err) {
      return failure(err);
    }
  }

  /** Makes the open breakers of a seat (or of one target) probe-ready now; the breaker events say what changed. */
  async probe(seat: string, model?: string): Promise<ProbeOutcome> {
    const client = this.feed?.client;
    if (!client) return notConnected();
    try {
      const result = await client.request('probe', probeArgs(seat, model));
      return { ok: true, madeReady: result.made_ready };
    } catch (err) {
      return failure(err);
    }
  }

  /**
   * One connection attempt; resolves with what failed when it did not go
   * live: `connect` (nothing answers at the socket) or `handshake` (a
   * daemon answered but could not be read: another protocol, an error).
   */
  private async attempt(): Promise<{ stage: 'connect' | 'handshake'; error: Error } | null> {
    let client: MonitorClient;
    try {
      client = await this.connect();
    } catch (err) {
      return { stage: 'connect', error: asError(err) };
    }
    if (this.stopped) {
      client.close();
      return null;
    }
    const feed: Feed = { client, held: [], snapshotSeq: 0, again: false };
    client.onClose((error) => {
      if (this.feed === feed) this.lost(error ? error.message : 'connection closed');
    });
    try {
      const hello = await client.request('hello');
      checkProtocol(hello);
      this.store.setDaemon(hello);
      await client.subscribe((event) => this.onEvent(feed, event));
      await this.takeSnapshot(feed);
    } catch (err) {
      client.close();
      return { stage: 'handshake', error: asError(err) };
    }
    if (this.stopped) {
      client.close();
      return null;
    }
    this.feed = feed;
    this.lostAt = null;
    this.backoffMs = this.initialBackoffMs;
    this.store.setConnection({ kind: 'live', since: this.clock() });
    void this.backfill(feed);
    return null;
  }

  /** The daemon's last decisions, for the log; a daemon without `recent` just has none to give. */
  private async backfill(feed: Feed): Promise<void> {
    try {
      const { decisions } = await feed.client.request('recent', { n: RECENT_MAX });
      if (this.feed === feed) this.store.push({ kind: 'backfill', decisions });
    } catch {
      // an older daemon, or the connection went: the live log still fills
    }
  }

  /** No daemon yet: say so and try again until one answers. */
  private wait(): void {
    if (this.stopped || !this.waitFor) return;
    this.store.setConnection({ kind: 'waiting', path: this.waitFor.path });
    this.retryTimer = setTimeout(() => void this.retryWaiting(), this.initialBackoffMs);
  }

  private async retryWaiting(): Promise<void> {
    this.retryTimer = null;
    if (this.stopped) return;
    const failure = await this.attempt();
    if (failure === null || this.stopped) return;
    if (failure.stage === 'connect') this.wait();
    else {
      // a daemon is there but cannot be read: say why, and keep trying like after a lost connection
      this.lostAt ??= this.clock();
      this.scheduleRetry(failure.error.message);
    }
  }

  /** Asks for a snapshot, holding events until it is in the store, then hands them over in order. */
  private async takeSnapshot(feed: Feed): Promise<void> {
    feed.held ??= [];
    const snapshot = await feed.client.request('snapshot');
    this.store.push({ kind: 'snapshot', snapshot });
    feed.snapshotSeq = snapshot.seq;
    const held = feed.held;
    feed.held = null;
    for (const event of held) this.deliver(feed, event);
  }

  private onEvent(feed: Feed, event: StreamedEvent): void {
    if (event.type === 'overflow') {
      // The daemon dropped us for reading too slowly; it closes the socket. Start over.
      feed.client.close();
      return;
    }
    if (feed.held) feed.held.push(event);
    else this.deliver(feed, event);
  }

  private deliver(feed: Feed, event: StreamedEvent): void {
    if (event.type === 'overflow') return;
    this.store.push({ kind: 'event', event });
    if (event.type === 'reload' && event.ok && event.seq > feed.snapshotSeq) void this.resnapshot(feed);
  }

  private async resnapshot(feed: Feed): Promise<void> {
    if (feed.held) {
      // One snapshot at a time: a second reply could land after events already handed over.
      feed.again = true;
      return;
    }
    do {
      feed.again = false;
      try {
        await this.takeSnapshot(feed);
      } catch {
        // No snapshot (the connection is going, or the daemon did not answer): events would wait
        // for it forever. Start over; the reconnect takes a fresh snapshot.
        feed.client.close();
        return;
      }
    } while (feed.again && this.feed === feed);
  }

  private lost(reason: string): void {
    this.feed = null;
    this.lostAt = this.clock();
    if (!this.stopped) this.scheduleRetry(reason);
  }

  private scheduleRetry(reason: string): void {
    const delay = this.backoffMs;
    const since = this.lostAt ?? this.clock();
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.store.setConnection({ kind: 'disconnected', reason, retryAt: this.clock() + delay, since });
    this.retryTimer = setTimeout(() => void this.retry(reason), delay);
  }

  private async retry(reason: string): Promise<void> {
    this.retryTimer = null;
    if (this.stopped) return;
    this.store.setConnection({ kind: 'disconnected', reason, retryAt: null, since: this.lostAt ?? this.clock() });
    const failure = await this.attempt();
    if (failure && !this.stopped) this.scheduleRetry(reason);
  }
}

/** Throws, in words, when the daemon does not speak the protocol this monitor reads. */
export function checkProtocol(hello: HelloResult): void {
  const spoken: unknown = (hello as { protocol?: unknown }).protocol;
  if (spoken !== PROTOCOL) {
    throw new Error(
      `the daemon (routeplane ${hello.version}) speaks control protocol ${typeof spoken === 'number' ? spoken : 1}; this monitor needs protocol ${PROTOCOL}: update the daemon`,
    );
  }
}

function notConnected(): { ok: false; code: string; message: string } {
  return { ok: false, code: 'disconnected', message: 'not connected to the daemon' };
}

function failure(err: unknown): { ok: false; code: string; message: string } {
  const error = asError(err);
  const raw = (error as Error & { code?: unknown }).code;
  return { ok: false, code: typeof raw === 'string' ? raw : 'error', message: error.message };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
