import {
  type ControlError,
  type ControlRequest,
  type DaemonEvent,
  type DaemonIdentity,
  type HelloResult,
  type InfluenceInfo,
  ROUTEPLANE_VERSION,
  type ResultByCommand,
  type Snapshot,
  seatAuth,
  type StatusSummary,
} from '@routeplane/shared';
import type { DaemonContext } from '../context.js';

/** Every command but `subscribe`, which the connection handles with its own queue. */
export type QueryRequest = Exclude<ControlRequest, { cmd: 'subscribe' }>;

export type CommandOutcome<R = ResultByCommand[QueryRequest['cmd']]> = { ok: true; result: R } | { ok: false; error: ControlError };

/** What the control server needs from the daemon; nothing here knows about sockets. */
export interface ControlApi {
  answer(request: QueryRequest): CommandOutcome;
  /** returns the unsubscribe function */
  subscribe(listener: (event: DaemonEvent) => void): () => void;
}

export function createControlApi(ctx: DaemonContext): ControlApi {
  return {
    answer(request) {
      switch (request.cmd) {
        case 'hello':
          return { ok: true, result: hello(ctx) };
        case 'snapshot':
          return { ok: true, result: snapshot(ctx) };
        case 'status':
          return { ok: true, result: status(ctx) };
        case 'reset': {
          const outcome = ctx.influence.reset(request.seat, request.model);
          return outcome.ok ? { ok: true, result: { cleared: outcome.cleared } } : refusal(outcome);
        }
        case 'probe': {
          const outcome = ctx.influence.probe(request.seat, request.model);
          return outcome.ok ? { ok: true, result: { made_ready: outcome.made_ready } } : refusal(outcome);
        }
        case 'recent':
          return { ok: true, result: { decisions: ctx.recent.last(request.n) } };
        case 'reload':
          return ctx.reload();
      }
    },
    subscribe: (listener) => ctx.bus.subscribe(listener),
  };
}

function refusal(outcome: { code: ControlError['code']; message: string }): CommandOutcome {
  return { ok: false, error: { code: outcome.code, message: outcome.message } };
}

function influenceInfo(ctx: DaemonContext): InfluenceInfo {
  return { ...ctx.config.influence };
}

function hello(ctx: DaemonContext): HelloResult {
  return {
    version: ROUTEPLANE_VERSION,
    protocol: 2,
    pid: process.pid,
    started_at: ctx.startedAt,
    http_url: ctx.httpUrl,
    influence: influenceInfo(ctx),
    daemon_id: ctx.daemonId,
    store: ctx.store.info(),
    restored: ctx.restored,
    config_path: ctx.configPath,
  };
}

/**
 * One consistent moment: everything here is read synchronously, and `seq` is
 * the last event already reflected, so a subscriber applies only later ones.
 */
function snapshot(ctx: DaemonContext): Snapshot {
  const { influence } = ctx;
  const breakers = influence.breakers();
  const routes = influence.routes();
  const seats = influence.seats().map((seat) => ({ ...seat, usage: ctx.usage.shownOf(seat.id), tokens: ctx.metrics.tokensOf(seat.id) }));
  return {
    seq: ctx.bus.lastSeq,
    now: ctx.clock.now(),
    influence: influenceInfo(ctx),
    routes,
    seats,
    breakers,
    // a copy: the live counters keep moving while the reply is serialized
    counters: { ...ctx.counters },
    store: ctx.store.info(),
  };
}

export function daemonIdentity(ctx: DaemonContext): DaemonIdentity {
  return {
    version: ROUTEPLANE_VERSION,
    pid: process.pid,
    started_at: ctx.startedAt,
    http_url: ctx.httpUrl,
    config_path: ctx.configPath,
    store: ctx.store.info(),
  };
}

/** The health summary: the control `status` command and `GET /status` answer the same. */
export function status(ctx: DaemonContext): StatusSummary {
  const tokens = Object.fromEntries(ctx.config.seats.map((seat) => [seat.id, ctx.metrics.tokensOf(seat.id)]));
  const seats = ctx.config.seats.map((seat) => ({
    id: seat.id,
    provider: seat.provider,
    auth: seatAuth(seat),
    usage: ctx.usage.shownOf(seat.id),
  }));
  return { now: ctx.clock.now(), daemon: daemonIdentity(ctx), counters: { ...ctx.counters }, open: ctx.influence.open(), tokens, seats };
}
