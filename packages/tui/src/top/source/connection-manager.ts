import type { DecisionEvent, StreamedEvent } from '@routeplane/shared';
import type { MonitorStore } from '../store/monitor-store.js';
import type { ConnectMonitorClient, MonitorClient } from './monitor-client.js';
import { DebouncedTask } from './debounced-task.js';
import { resetArgs, type ResetOutcome, type ResetRequest } from './reset-request.js';

/**
 * Keeps the store fed from the daemon: connect → hello → snapshot → subscribe.
 * When the connection ends (daemon stopped or restarted, or our queue
 * overflowed) the store keeps its last state and shows "disconnected", and we
 * reconnect with a capped backoff (0.5 s doubling to 2 s, so a restarted
 * daemon is live again within about 2 s), taking a fresh snapshot each time.
 *
 * Breaker events are applied by the store at once; they also schedule a fresh
 * `snapshot` (at most one per `resnapshotIntervalMs`) because events cannot
 * carry everything the screen shows (refused counts, the configured position
 * of a cleared target when we have only seen it tripped).
 */
export interface ConnectionManagerOptions {
  connect: ConnectMonitorClient;
  store: MonitorStore;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  resnapshotIntervalMs?: number;
  clock?: () => number;
}

export type StartResult = { readonly ok: true } | { readonly ok: false; readonly error: Error };

export interface MonitorActions {
  reset(request: ResetRequest): Promise<ResetOutcome>;
}

export class ConnectionManager implements MonitorActions {
  private readonly connect: ConnectMonitorClient;
  private readonly store: MonitorStore;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly clock: () => number;
  private client: MonitorClient | null = null;
  private backoffMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly resnapshot: DebouncedTask;
  private stopped = false;

  constructor(options: ConnectionManagerOptions) {
    this.connect = options.connect;
    this.store = options.store;
    this.initialBackoffMs = options.initialBackoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 2000;
    this.clock = options.clock ?? Date.now;
    this.resnapshot = new DebouncedTask(() => this.takeSnapshot(), options.resnapshotIntervalMs ?? 1000, this.clock);
    this.backoffMs = this.initialBackoffMs;
  }

  /**
   * The first connection. A failure is returned, not retried: a monitor
   * started with no daemon says so and exits (spec, "CLI").
   */
  async start(): Promise<StartResult> {
    this.store.setConnection({ kind: 'connecting' });
    const error = await this.attempt();
    return error ? { ok: false, error } : { ok: true };
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.resnapshot.cancel();
    const client = this.client;
    this.client = null;
    client?.close();
  }

  async reset(request: ResetRequest): Promise<ResetOutcome> {
    const client = this.client;
    if (!client) return { ok: false, code: 'disconnected', message: 'not connected to the daemon' };
    try {
      const result = await client.request('reset', resetArgs(request));
      this.resnapshot.request();
      return { ok: true, cleared: result.cleared };
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      const raw = (error as Error & { code?: unknown }).code;
      const code = typeof raw === 'string' ? raw : 'error';
      return { ok: false, code, message: error.message };
    }
  }

  /** One connection attempt; resolves with the error when it did not go live. */
  private async attempt(): Promise<Error | null> {
    let client: MonitorClient;
    try {
      client = await this.connect();
    } catch (err) {
      return asError(err);
    }
    if (this.stopped) {
      client.close();
      return null;
    }
    client.onClose((error) => {
      if (this.client === client) this.lost(error ? error.message : 'connection closed');
    });
    try {
      this.store.setDaemon(await client.request('hello'));
      this.store.push({ kind: 'snapshot', snapshot: await client.request('snapshot') });
      await client.subscribe((event) => this.onEvent(client, event));
    } catch (err) {
      client.close();
      return asError(err);
    }
    if (this.stopped) {
      client.close();
      return null;
    }
    this.client = client;
    this.backoffMs = this.initialBackoffMs;
    this.store.setConnection({ kind: 'live', since: this.clock() });
    // Events between the snapshot and the subscribe reply were not streamed to us.
    this.resnapshot.request();
    return null;
  }

  private onEvent(client: MonitorClient, event: StreamedEvent): void {
    if (event.type === 'overflow') {
      // The daemon dropped us for reading too slowly; it closes the socket. Start over.
      client.close();
      return;
    }
    this.store.push({ kind: 'event', event });
    if (event.type === 'breaker' || touchesTrippedTarget(event)) this.resnapshot.request();
  }

  private lost(reason: string): void {
    this.client = null;
    this.resnapshot.cancel();
    if (!this.stopped) this.scheduleRetry(reason);
  }

  private scheduleRetry(reason: string): void {
    const delay = this.backoffMs;
    this.backoffMs = Math.min(this.maxBackoffMs, this.backoffMs * 2);
    this.store.setConnection({ kind: 'disconnected', reason, retryAt: this.clock() + delay });
    this.retryTimer = setTimeout(() => void this.retry(reason), delay);
  }

  private async retry(reason: string): Promise<void> {
    this.retryTimer = null;
    if (this.stopped) return;
    this.store.setConnection({ kind: 'disconnected', reason, retryAt: null });
    const error = await this.attempt();
    if (error && !this.stopped) this.scheduleRetry(reason);
  }

  private async takeSnapshot(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      const snapshot = await client.request('snapshot');
      if (this.client === client) this.store.push({ kind: 'snapshot', snapshot });
    } catch {
      // The connection is going away; the reconnect takes a fresh snapshot.
    }
  }
}

/**
 * A request that tried a tripped target (refused, or fail-open) changed a
 * refused count, which no breaker event reports.
 */
function touchesTrippedTarget(event: StreamedEvent): boolean {
  if (event.type !== 'decision') return false;
  const decision: DecisionEvent = event;
  if (decision.fail_open) return true;
  return decision.chain.some(
    (entry) => entry.state === 'tripped' && decision.attempts.some((a) => a.seat === entry.seat && a.model === entry.model),
  );
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
