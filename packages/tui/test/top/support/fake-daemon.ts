import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyBreakerEvent,
  type Breaker,
  type BreakerAction,
  type BreakerEvent,
  breakersNamedBy,
  type DaemonEvent,
  type DecisionEvent,
  encodeLine,
  type HelloResult,
  type InfluenceInfo,
  isProbed,
  LineSplitter,
  RECENT_MAX,
  type SeatUsage,
  type Snapshot,
} from '@routeplane/shared';
import { connectControl } from '../../../src/client/control-client.js';
import type { MonitorClient } from '../../../src/top/source/monitor-client.js';
import { breakerEvent, type FixtureRoute, INFLUENCE, MEMORY_STORE, ROUTES, snapshotOf, UPSTREAM } from './fixtures.js';

/**
 * A stand-in for the daemon's control socket that speaks protocol v2 over a
 * real unix socket, one JSON object a line, so the monitor's real client
 * reads it as it reads the daemon: `hello` with `protocol: 2`, a `snapshot`
 * with `seq`, `breakers[]` and chains projected by the shared rules, and
 * `{"event": …}` lines stamped with increasing `seq`. It keeps its own
 * breakers: every breaker event it sends is applied to them first, so a
 * snapshot always reflects exactly the events up to its `seq` (as the daemon
 * guarantees). `reset` and `probe` act on them and send the events the
 * daemon would. Tests drive time and trouble; the end-to-end tests
 * (e2e-*.test.ts) talk to the real daemon.
 */
export interface RecordedRequest {
  readonly cmd: string;
  readonly args: { seat?: string; model?: string } | undefined;
}

/** An event the daemon is about to send; `seq` and `ts` are stamped unless given. */
export type Outgoing = DistributiveOmit<DaemonEvent, 'seq' | 'ts'> & { seq?: number; ts?: number };
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface FakeDaemonOptions {
  breakers?: readonly Breaker[];
  routes?: readonly FixtureRoute[];
  influence?: InfluenceInfo;
  /** what `hello` says its protocol is (a v1 daemon says none) */
  protocol?: number | null;
  /** decisions the daemon made before anyone watched: `recent` answers with them (and every one decided since) */
  recent?: readonly DecisionEvent[];
}

interface Connection {
  readonly socket: Socket;
  subscribed: boolean;
}

class RequestFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class FakeDaemon {
  readonly requests: RecordedRequest[] = [];
  readonly socketPath: string;
  seq = 0;
  breakers = new Map<string, Breaker>();
  routes: FixtureRoute[];
  influence: InfluenceInfo;
  protocol: number | null;
  startedAt = Date.now() - 312_000;
  pid = 4242;
  /** connection attempts made through `connect` (also those that found no daemon) */
  connects = 0;
  /** runs right after a connection subscribed: what it sends reaches the subscriber before its snapshot reply */
  onSubscribe: (() => void) | null = null;
  /** runs right after a snapshot is taken; the events it sends share one write with the reply */
  afterSnapshot: (() => void) | null = null;
  /** how many of the next `snapshot` requests get an `internal` error reply */
  failSnapshots = 0;
  /** the daemon's ring of recent decisions, oldest first (at most RECENT_MAX) */
  recent: DecisionEvent[];
  /** usage windows per seat, as the snapshot reports them */
  usage = new Map<string, SeatUsage>();

  private server: Server | null = null;
  private readonly connections = new Set<Connection>();
  /** while set, event lines are collected here instead of written (to go out with a reply) */
  private batch: string[] | null = null;

  private constructor(
    private readonly dir: string,
    options: FakeDaemonOptions,
  ) {
    this.socketPath = join(dir, 'control.sock');
    this.routes = [...(options.routes ?? ROUTES)];
    this.influence = options.influence ?? INFLUENCE;
    this.protocol = options.protocol === undefined ? 2 : options.protocol;
    this.recent = [...(options.recent ?? [])];
    for (const b of options.breakers ?? []) this.breakers.set(b.key, b);
  }

  static async start(options: FakeDaemonOptions = {}): Promise<FakeDaemon> {
    const daemon = new FakeDaemon(mkdtempSync(join(tmpdir(), 'rp-fake-daemon-')), options);
    await daemon.listen();
    return daemon;
  }

  /** Opens a connection as `top` does, through the real control client. */
  connect = async (): Promise<MonitorClient> => {
    this.connects += 1;
    return connectControl(this.socketPath, { timeoutMs: 5000 });
  };

  get up(): boolean {
    return this.server !== null;
  }

  requestsOf(cmd: string): RecordedRequest[] {
    return this.requests.filter((r) => r.cmd === cmd);
  }

  snapshot(): Snapshot {
    const snapshot = snapshotOf({
      now: Date.now(),
      seq: this.seq,
      breakers: [...this.breakers.values()],
      routes: this.routes,
      influence: this.influence,
    });
    return { ...snapshot, seats: snapshot.seats.map((s) => ({ ...s, usage: this.usage.get(s.id) ?? null })) };
  }

  // ── sending ───────────────────────────────────────────────────────

  /** Stamps and sends one event to every subscriber; a breaker event first changes the daemon's own breakers. */
  emit(event: Outgoing): DaemonEvent {
    const stamped = { ...event, seq: event.seq ?? this.seq + 1, ts: event.ts ?? Date.now() } as DaemonEvent;
    this.seq = Math.max(this.seq, stamped.seq);
    if (stamped.type === 'breaker') applyBreakerEvent(this.breakers, stamped);
    if (stamped.type === 'usage') this.usage.set(stamped.seat, stamped.usage);
    if (stamped.type === 'decision') this.recent = [...this.recent, stamped].slice(-RECENT_MAX);
    this.send(encodeLine({ event: stamped }));
    return stamped;
  }

  /** A change to one breaker, as the daemon sends it: the whole breaker after it (null once it ended). */
  change(action: BreakerAction, b: Breaker, reason?: string): BreakerEvent {
    // its own transitions carry its own id, as `hello` says it (another daemon's would carry theirs)
    return this.emit({ ...breakerEvent(this.seq + 1, Date.now(), action, b, reason), origin: this.daemonId }) as BreakerEvent;
  }

  get daemonId(): string {
    return `fake-host:${this.pid}`;
  }

  decide(decision: DecisionEvent): DecisionEvent {
    const { seq: _seq, ts, ...rest } = decision;
    return this.emit({ ...rest, ts }) as DecisionEvent;
  }

  /** One line exactly as given, to every subscriber (for events the daemon would never stamp so). */
  sendLine(line: string): void {
    this.send(line.endsWith('\n') ? line : line + '\n');
  }

  /** Everything `send` inside `fn` goes to the subscribers in one write, as a daemon flushing its queue. */
  burst(fn: () => void): void {
    this.batch = [];
    try {
      fn();
    } finally {
      const lines = this.batch.join('');
      this.batch = null;
      this.send(lines);
    }
  }

  /** The daemon dropped a slow subscriber: the overflow line, then the socket closes. */
  overflow(): void {
    for (const c of this.connections) {
      if (!c.subscribed) continue;
      c.socket.end(encodeLine({ event: { type: 'overflow' } }));
    }
  }

  // ── lifecycle ─────────────────────────────────────────────────────

  /** The daemon goes away: every connection ends and the socket file is gone. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const c of this.connections) c.socket.destroy();
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A new daemon process on the same socket: its own pid and start time, no breakers, `seq` from 0. */
  async restart(options: { breakers?: readonly Breaker[] } = {}): Promise<void> {
    await this.stop();
    this.seq = 0;
    this.breakers = new Map((options.breakers ?? []).map((b) => [b.key, b]));
    this.pid += 1;
    this.startedAt = Date.now();
    await this.listen();
  }

  /** The same daemon listening again (a daemon that was not started yet appears). */
  async resume(): Promise<void> {
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  // ── internals ─────────────────────────────────────────────────────

  private listen(): Promise<void> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socketPath, () => resolve());
    });
  }

  private send(line: string): void {
    if (this.batch) {
      this.batch.push(line);
      return;
    }
    for (const c of this.connections) if (c.subscribed) c.socket.write(line);
  }

  private accept(socket: Socket): void {
    const connection: Connection = { socket, subscribed: false };
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => this.connections.delete(connection));
    const splitter = new LineSplitter(1024 * 1024);
    socket.on('data', (chunk: Buffer) => {
      for (const result of splitter.push(chunk)) if (result.kind === 'line') this.answer(connection, result.line);
    });
  }

  private answer(connection: Connection, line: string): void {
    const request = JSON.parse(line) as { id: number; cmd: string; seat?: string; model?: string };
    const { id, cmd, ...rest } = request;
    const args = Object.keys(rest).length > 0 ? (rest as { seat?: string; model?: string }) : undefined;
    this.requests.push({ cmd, args });
    const reply = (result: unknown, tail: string[] = []) => connection.socket.write(encodeLine({ id, ok: true, result }) + tail.join(''));
    try {
      switch (cmd) {
        case 'hello':
          return void reply(this.hello());
        case 'subscribe':
          reply({ subscribed: true });
          connection.subscribed = true;
          this.onSubscribe?.();
          return;
        case 'snapshot': {
          if (this.failSnapshots > 0) {
            this.failSnapshots -= 1;
            throw new RequestFailure('internal', 'snapshot failed');
          }
          const snapshot = this.snapshot();
          this.batch = [];
          try {
            this.afterSnapshot?.();
          } finally {
            const tail = this.batch;
            this.batch = null;
            reply(snapshot, tail);
            // other subscribers get the same events on their own
            for (const c of this.connections) if (c !== connection && c.subscribed) for (const l of tail) c.socket.write(l);
          }
          return;
        }
        case 'reset':
          return void reply({ cleared: this.reset(args) });
        case 'probe':
          return void reply({ made_ready: this.probe(args) });
        case 'recent': {
          const n = (request as { n?: number }).n ?? RECENT_MAX;
          return void reply({ decisions: this.recent.slice(-n) });
        }
        default:
          throw new RequestFailure('unknown_command', `unknown command "${cmd}"`);
      }
    } catch (err) {
      const failure = err instanceof RequestFailure ? err : new RequestFailure('internal', String(err));
      connection.socket.write(encodeLine({ id, ok: false, error: { code: failure.code, message: failure.message } }));
    }
  }

  private hello(): HelloResult {
    const hello: HelloResult = {
      version: '0.2.0',
      protocol: 2,
      pid: this.pid,
      started_at: this.startedAt,
      http_url: 'http://127.0.0.1:4141',
      influence: this.influence,
      daemon_id: this.daemonId,
      store: MEMORY_STORE,
      restored: 0,
      config_path: null,
    };
    if (this.protocol === 2) return hello;
    const { protocol: _protocol, ...v1 } = hello;
    return (this.protocol === null ? v1 : { ...v1, protocol: this.protocol }) as HelloResult;
  }

  /** The breakers a seat or target command names, as `reset` names them; unknown ones are errors. */
  private named(args: { seat?: string; model?: string } | undefined): Breaker[] {
    if (!this.influence.enabled) throw new RequestFailure('influence_disabled', 'routing influence is disabled');
    const all = [...this.breakers.values()];
    if (args?.seat === undefined) return all;
    const { seat, model } = args;
    if (!(seat in UPSTREAM)) throw new RequestFailure('unknown_seat', `unknown seat "${seat}"`);
    const models = [...new Set(this.routes.flatMap((r) => r.chain.filter((t) => t.seat === seat).map((t) => t.model)))];
    if (model !== undefined && !models.includes(model)) {
      throw new RequestFailure('unknown_target', `unknown target "${seat}/${model}"`);
    }
    return breakersNamedBy(all, { id: seat, upstream: UPSTREAM[seat]!, models }, model);
  }

  private reset(args: { seat?: string; model?: string } | undefined): number {
    const named = this.named(args);
    for (const b of named) this.change('reset', b, 'reset');
    return named.length;
  }

  private probe(args: { seat?: string; model?: string } | undefined): number {
    if (args?.seat === undefined) throw new RequestFailure('bad_request', 'probe: name a seat');
    const open = this.named(args).filter((b) => b.phase === 'open' && isProbed(b.kind));
    const now = Date.now();
    for (const b of open) this.change('probe_ready', { ...b, phase: 'probe_ready', until: now }, 'probe now');
    return open.length;
  }
}
