import type { DecisionEvent, HelloResult } from '@routeplane/shared';
import { applyDecision, applyEvent, type DaemonModel, modelOf } from './daemon-model.js';
import { routeViews, seatViews } from './derive-view.js';
import { type ConnectionState, countdownClock, type DecisionEntry, type Incoming, type MonitorState } from './monitor-state.js';
import { RateCounter } from './rates.js';
import { RingBuffer } from './ring-buffer.js';
import { ActivityCounter } from './seat-activity.js';
import { SessionList } from './session-list.js';
import { SessionShares } from './session-shares.js';

/**
 * The monitor's single source of truth, plain TypeScript (no React, no I/O):
 * a fold of protocol v2. A snapshot sets the daemon
 * model; each breaker or store event with a greater `seq` updates it; the
 * chains and seats shown are projected from it with the shared rules.
 * Decisions feed the log, the rates, the seats' sparklines and the spread
 * routes' shares (they are not part of a snapshot); on attach the daemon's
 * `recent` decisions are merged in by request id, so the log starts with
 * the daemon's history and never shows one decision twice.
 *
 * Snapshots and events are queued as they arrive and folded in by one flush
 * timer, at most once per `flushIntervalMs` (50 ms → ≤ 20 screen updates a
 * second however hard the daemon streams): the screen never renders once per
 * event. A 1 Hz tick moves `now` for every countdown on screen at once; the
 * daemon says when a countdown's breaker changes (`probe_ready`, `cleared`),
 * so the tick changes no state. React reads it through `subscribe`/`getState`
 * (useSyncExternalStore).
 */
export interface MonitorStoreOptions {
  flushIntervalMs?: number;
  tickIntervalMs?: number;
  decisionCapacity?: number;
  clock?: () => number;
}

export class MonitorStore {
  private readonly flushIntervalMs: number;
  private readonly tickIntervalMs: number;
  private readonly clock: () => number;
  private ring: RingBuffer<DecisionEntry>;
  private readonly decisionCapacity: number;
  private readonly rateCounter = new RateCounter();
  private readonly activityCounter = new ActivityCounter();
  private readonly sessionShares = new SessionShares();
  private readonly sessionList = new SessionList();
  private readonly listeners = new Set<() => void>();
  private queue: Incoming[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lastFlushAt = -Infinity;
  private model: DaemonModel | null = null;
  /** the attached daemon's id: a transition from any other shows where it came from */
  private daemonId: string | null = null;
  private received = 0;
  private state: MonitorState;

  constructor(options: MonitorStoreOptions = {}) {
    this.flushIntervalMs = options.flushIntervalMs ?? 50;
    this.tickIntervalMs = options.tickIntervalMs ?? 1000;
    this.clock = options.clock ?? Date.now;
    this.decisionCapacity = options.decisionCapacity ?? 500;
    this.ring = new RingBuffer(this.decisionCapacity);
    const now = this.clock();
    this.rateCounter.begin(now);
    this.state = {
      now,
      connection: { kind: 'connecting' },
      daemon: null,
      influence: null,
      hasSnapshot: false,
      seq: 0,
      routes: [],
      seats: [],
      store: null,
      decisions: [],
      decisionsReceived: 0,
      rates: { requestsPerSec: 0, failoversPerMin: 0, backgroundPerMin: 0, skippedPerMin: 0 },
      activity: new Map(),
      shares: new Map(),
      sessions: [],
    };
  }

  // ── reading (React) ───────────────────────────────────────────────
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): MonitorState => this.state;

  // ── writing (the connection manager) ──────────────────────────────
  /** Starts the shared 1 Hz tick that moves countdowns and rates. */
  start(): void {
    if (this.tickTimer) return;
    this.tickTimer = setInterval(() => this.publish({}), this.tickIntervalMs);
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
    let { influence, connection, daemon } = this.state;
    const before = this.model;
    let decisionsChanged = false;
    for (const item of items) {
      switch (item.kind) {
        case 'connection':
          connection = item.connection;
          if (connection.kind === 'live') this.rateCounter.begin(this.clock());
          break;
        case 'hello': {
          const { hello } = item;
          daemon = { httpUrl: hello.http_url, startedAt: hello.started_at, pid: hello.pid, version: hello.version };
          const id = typeof hello.daemon_id === 'string' ? hello.daemon_id : null;
          // another daemon now (a restart): where its breakers' transitions came from is not known yet
          if (id !== this.daemonId && this.model) this.model = { ...this.model, origins: new Map() };
          this.daemonId = id;
          influence = hello.influence;
          break;
        }
        case 'snapshot':
          this.model = modelOf(item.snapshot, this.model);
          influence = item.snapshot.influence;
          break;
        case 'event': {
          const { event } = item;
          if (event.type === 'decision') {
            this.received += 1;
            this.ring.push({ id: event.request_id, event });
            decisionsChanged = true;
            this.count(event);
            if (this.model) this.model = applyDecision(this.model, event);
          } else if ((event.type === 'breaker' || event.type === 'store' || event.type === 'usage') && this.model) {
            // before the first snapshot there is nothing to apply it to: the snapshot will hold it
            this.model = applyEvent(this.model, event);
          }
          // a reload changes the configured routes: the connection manager takes a fresh snapshot
          break;
        }
        case 'backfill':
          if (this.backfill(item.decisions)) decisionsChanged = true;
          break;
      }
    }
    const model = this.model;
    this.publish({
      influence,
      connection,
      daemon,
      // views are recomputed only when the model changed, so panels that did not change keep their rows
      ...(model !== before && model
        ? { hasSnapshot: true, seq: model.seq, routes: routeViews(model, this.daemonId), seats: seatViews(model), store: model.store }
        : {}),
      ...(decisionsChanged ? { decisions: this.ring.toArray() } : {}),
    });
  }

  private count(event: DecisionEvent): void {
    this.rateCounter.record({
      ts: event.ts,
      attempts: event.attempts.length,
      background: event.lane === 'background',
      skipped: event.skipped,
    });
    this.activityCounter.record(event.ts, event.attempts);
    this.sessionShares.record(event);
    this.sessionList.record(event);
  }

  /** Merges the daemon's recent decisions into the log by request id, in time order; true when any was new. */
  private backfill(decisions: readonly DecisionEvent[]): boolean {
    const kept = this.ring.toArray();
    const known = new Set(kept.map((e) => e.id));
    const fresh = decisions.filter((d) => !known.has(d.request_id));
    if (fresh.length === 0) return false;
    for (const d of fresh) {
      this.count(d);
      known.add(d.request_id);
    }
    const merged = [...fresh.map((event) => ({ id: event.request_id, event })), ...kept].sort((a, b) => a.event.ts - b.event.ts);
    this.ring = new RingBuffer(this.decisionCapacity);
    for (const entry of merged.slice(-this.decisionCapacity)) this.ring.push(entry);
    this.received += fresh.length;
    return true;
  }

  private publish(changes: Partial<MonitorState>): void {
    const now = this.clock();
    const next = { ...this.state, ...changes, now };
    // while disconnected the sparklines stop with the countdowns: nothing is seen, which is not "no traffic"
    const seen = countdownClock(next).now;
    this.state = {
      ...next,
      decisionsReceived: this.received,
      rates: this.rateCounter.rates(now),
      activity: this.activityCounter.activity(seen),
      shares: this.sessionShares.shares(seen),
      sessions: this.sessionList.sessions(seen),
    };
    for (const listener of this.listeners) listener();
  }
}
