import type { Attempt, AttemptOutcome, DecisionEvent } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';

const OUTCOME_WORDS: Record<AttemptOutcome, (a: Attempt) => string> = {
  ok: () => 'ok',
  http_402: () => '402',
  http_429: () => '429',
  http_5xx: (a) => String(a.status ?? '5xx'),
  http_4xx: (a) => String(a.status ?? '4xx'),
  timeout: () => 'timeout',
  network: () => 'network',
  aborted: () => 'aborted',
  stream_error: () => 'stream error',
};

/** One attempt's outcome in a word or a status: `ok`, `402`, `503`, `timeout`. */
export function outcomeWord(attempt: Attempt): string {
  return OUTCOME_WORDS[attempt.outcome](attempt);
}

/**
 * The attempts as a path: `max-a 402 → team ok`. Seats name the step; a
 * seat tried twice (two of its models) is written `seat/model` to tell them apart.
 */
export function attemptPath(decision: Pick<DecisionEvent, 'attempts'>): string {
  if (decision.attempts.length === 0) return 'no attempt';
  const seats = decision.attempts.map((a) => a.seat);
  return decision.attempts
    .map((a) => {
      const twice = seats.indexOf(a.seat) !== seats.lastIndexOf(a.seat);
      return `${twice ? `${a.seat}/${a.model}` : a.seat} ${outcomeWord(a)}`;
    })
    .join(' → ');
}

/** Local wall-clock time of day, `14:03:27`. */
export function timeOfDay(ts: number): string {
  const d = new Date(ts);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** One decision, one line: time, route, served_by, attempt path, status, ms. */
export function formatDecisionLine(decision: DecisionEvent, colour: ChalkInstance): string {
  const ok = decision.status >= 200 && decision.status < 300;
  const status = ok ? colour.green(String(decision.status)) : colour.red(String(decision.status));
  const served = decision.served_by ?? '—';
  const failOpen = decision.fail_open ? colour.yellow('  (fail-open)') : '';
  return (
    [
      colour.dim(timeOfDay(decision.ts)),
      (decision.route ?? '(no model)').padEnd(14),
      `→ ${served}`.padEnd(30),
      attemptPath(decision).padEnd(24),
      status,
      `${decision.duration_ms}ms`.padStart(7),
    ].join('  ') + failOpen
  );
}
