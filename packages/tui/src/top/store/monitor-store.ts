import type { BreakerEvent, HelloResult } from '@routeplane/shared';
import { applyBreakerEvent } from './breaker-model.js';
import { learnRouteOrders } from './configured-order.js';
import { deriveRoutes, deriveSeats } from './derive-view.js';
import type { ConnectionState, DecisionEntry, Incoming, MonitorState } from './monitor-state.js';
import { RateCounter } from './rates.js';
import { RingBuffer } from './ring-buffer.js';

export type { ConnectionState, DaemonInfo, DecisionEntry, Incoming, MonitorState } from './monitor-state.js';

/**
 * The monitor's single source of truth, plain TypeScript (no React, no I/O).
 *
 * Snapshots and events are queued as they arrive and folded in by one flush
 * timer, at most once per `flushIntervalMs` (50 ms → ≤ 20 screen updates a
 * second however hard the daemon streams): the screen never renders once per
 * event. A 1 Hz tick moves `now` for every countdown on screen at once. React
 * reads it through `subscribe`/`getState` (useSyncExternalStore).
 */
export interface MonitorStoreOptions {
  flushIntervalMs?: number;
  tickIntervalMs?: number;
  decisionCapacity?: number;
  clock?: () => number;
}

/** Breaker events younger than this are replayed over a snapshot that may predate them. */
const REPLAY_WINDOW_MS = 10_000;

export class MonitorStore {
  private readonly flushIntervalMs: number;
  private readonly tickIntervalMs: number;
  private readonly clock: () => number;
  private readonly ring: RingBuffer<DecisionEntry>;
  private readonly rateCounter = new RateCounter();
  private readonly listeners = new Set<() => void>();
  private queue: Incoming[] = [];
  private recentBreakerEvents: BreakerEvent[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lastFlushAt = -Infinity;
  /** `now` of the last snapshot applied: breaker events older than it are already in it */
  private snapshotNow = -Infinity;
  private received = 0;
  private state: MonitorState;

  constructor(options: MonitorStoreOptions = {}) {
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
    this.tickIntervalMs = options.tickIntervalMs ?? 1000;
    this.clock = options.clock ?? Date.now;
    this.ring = new RingBuffer(options.decisionCapacity ?? 500);
    const now = this.clock();
    this.rateCounter.begin(now);
    this.state = {
      now,
      connection: { kind: 'connecting' },
      daemon: null,
      influence: null,
      hasSnapshot: false,
      breakers: [],
      orders: [],
      routes: [],
      seats: [],
      decisions: [],
      decisionsReceived: 0,
      rates: { requestsPerSec: 0, failoversPerMin: 0 },
    };
  }

  // ── reading (React) ───────────────────────────────────────────────
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): MonitorState => this.state;

  // ── writing (the connection manager) ──────────────────────────────
  /** Starts the shared 1 Hz tick that drives countdowns and rates. */
  start(): void {
    if (this.tickTimer) return;
    this.tickTimer = setInterval(() => this.recompute({}), this.tickIntervalMs);
    this.tickTimer.unref();
  }

  stop(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.tickTimer = null;
    this.flushTimer = null;
  }

  push(item: Incoming): void {
    this.queue.push(item);
    this.scheduleFlush();
  }

  setDaemon(hello: HelloResult): void {
    this.push({ kind: 'hello', hello });
  }

  setConnection(connection: ConnectionState): void {
    this.push({ kind: 'connection', connection });
  }

  // ── internals ─────────────────────────────────────────────────────
  private scheduleFlush(): void {
    if (this.flushTimer) return;
    const wait = Math.max(0, this.lastFlushAt + this.flushIntervalMs - this.clock());
    this.flushTimer = setTimeout(() => this.flush(), wait);
    this.flushTimer.unref();
  }

  private flush(): void {
    this.flushTimer = null;
    this.lastFlushAt = this.clock();
    const items = this.queue;
    this.queue = [];
    let { breakers, orders, influence, hasSnapshot, connection, daemon } = this.state;
    let decisionsChanged = false;
    for (const item of items) {
      if (item.kind === 'connection') {
        connection = item.connection;
        if (connection.kind === 'live') this.rateCounter.begin(this.clock());
        continue;
      }
      if (item.kind === 'hello') {
        const { hello } = item;
        daemon = { httpUrl: hello.http_url, startedAt: hello.started_at, pid: hello.pid, version: hello.version };
        influence = hello.influence;
        continue;
      }
      if (item.kind === 'snapshot') {
        const snapshot = item.snapshot;
        orders = learnRouteOrders(orders, snapshot);
        breakers = snapshot.seats;
        influence = snapshot.influence;
        hasSnapshot = true;
        this.snapshotNow = snapshot.now;
        // Replies can overtake queued event lines (the daemon queues events for a
        // slow reader, not replies): re-apply events the snapshot may predate…
        for (const event of this.recentBreakerEvents) {
          if (event.ts >= snapshot.now) breakers = applyBreakerEvent(breakers, event);
        }
        continue;
      }
      const event = item.event;
      if (event.type === 'decision') {
        this.received += 1;
        this.ring.push({ n: this.received, event });
        decisionsChanged = true;
        this.rateCounter.record(event.ts, event.attempts.length);
      } else {
        // …and skip events the snapshot already contains.
        if (event.ts >= this.snapshotNow) breakers = applyBreakerEvent(breakers, event);
        this.recentBreakerEvents.push(event);
      }
    }
    const cutoff = this.clock() - REPLAY_WINDOW_MS;
    this.recentBreakerEvents = this.recentBreakerEvents.filter((e) => e.ts >= cutoff).slice(-500);
    this.recompute({ breakers, orders, influence, hasSnapshot, connection, daemon }, decisionsChanged);
  }

  private recompute(changes: Partial<MonitorState>, decisionsChanged = false): void {
    const now = this.clock();
    const next = { ...this.state, ...changes, now };
    const maxCooldownMs = (next.influence?.max_cooldown_secs ?? 900) * 1000;
    this.state = {
      ...next,
      routes: deriveRoutes(next.orders, next.breakers, now, maxCooldownMs),
      seats: deriveSeats(next.breakers, now, maxCooldownMs),
      decisions: decisionsChanged ? this.ring.toArray() : this.state.decisions,
      decisionsReceived: this.received,
      rates: this.rateCounter.rates(now),
    };
    for (const listener of this.listeners) listener();
  }
}
