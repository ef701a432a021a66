import {
  ROUTEPLANE_VERSION,
  type ControlError,
  type ControlRequest,
  type DaemonEvent,
  type HelloResult,
  type InfluenceInfo,
  type ResetResult,
  type ResultByCommand,
  type Snapshot,
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
        case 'reset':
          return reset(ctx, request.seat, request.model);
      }
    },
    subscribe: (listener) => ctx.bus.subscribe(listener),
  };
}

function influenceInfo(ctx: DaemonContext): InfluenceInfo {
  return { ...ctx.config.influence };
}

function hello(ctx: DaemonContext): HelloResult {
  return {
    version: ROUTEPLANE_VERSION,
    pid: process.pid,
    started_at: ctx.startedAt,
    http_url: ctx.httpUrl,
    influence: influenceInfo(ctx),
  };
}

function snapshot(ctx: DaemonContext): Snapshot {
  return {
    now: ctx.clock.now(),
    influence: influenceInfo(ctx),
    routes: [...ctx.routes.values()].map((route) => ({ model: route.model, chain: ctx.influence.view(route.chain) })),
    seats: ctx.influence.seats(),
    // a copy: the live counters keep moving while the reply is serialized
    counters: { ...ctx.counters },
  };
}

function status(ctx: DaemonContext): StatusSummary {
  return ctx.influence.status();
}

function reset(ctx: DaemonContext, seat: string | undefined, model: string | undefined): CommandOutcome<ResetResult> {
  const outcome = ctx.influence.reset(seat, model);
  if (outcome.ok) return { ok: true, result: { cleared: outcome.cleared } };
  return { ok: false, error: { code: outcome.code, message: outcome.message } };
}
