import type { Phase, ScenarioSeat } from './schema.js';

/** What a seat does for one request arriving at one moment. */
export type Behaviour =
  | { kind: 'ok'; slowFactor: 1 }
  | { kind: 'slow'; slowFactor: number }
  | { kind: 'credit_out' }
  | { kind: 'rate_limited'; retryAfterSecs: number }
  /** `resetInSecs`: scenario seconds until the window resets */
  | { kind: 'quota_out'; resetInSecs: number }
  | { kind: 'server_error'; status: number };

const OK: Behaviour = { kind: 'ok', slowFactor: 1 };

/**
 * The behaviour of `seat/model` at scenario second `t`. The first phase in the
 * seat's timeline that covers the moment (and the model) wins; nothing → ok.
 * With `repeatEvery`, the timeline replays from 0 every that many seconds.
 */
export function behaviourAt(seat: ScenarioSeat, model: string, t: number, repeatEvery: number | null): Behaviour {
  const local = repeatEvery === null ? t : t % repeatEvery;
  const phase = seat.timeline.find((p) => covers(p, model, local));
  if (!phase) return OK;
  switch (phase.phase) {
    case 'ok':
      return OK;
    case 'slow':
      return { kind: 'slow', slowFactor: phase.factor };
    case 'credit_out':
      return { kind: 'credit_out' };
    case 'server_error':
      return { kind: 'server_error', status: phase.status };
    case 'rate_limited': {
      // phase_end: the provider says exactly when its window resets, like a real one.
      const left = phase.retry_after === 'phase_end' ? (phase.to ?? local) - local : phase.retry_after;
      return { kind: 'rate_limited', retryAfterSecs: left };
    }
    case 'quota_out': {
      const left = phase.resets === 'phase_end' ? (phase.to ?? local) - local : phase.resets;
      return { kind: 'quota_out', resetInSecs: left };
    }
  }
}

function covers(p: Phase, model: string, t: number): boolean {
  if (p.model !== undefined && p.model !== model) return false;
  return t >= p.from && (p.to === undefined || t < p.to);
}
