import type { Attempt, AttemptOutcome, DecisionEvent } from '@routeplane/shared';
import { clipSegments, seg, segmentsText, type Segment, type Tone } from './segment.js';
import { fit, textWidth } from './text.js';

/**
 * One decision, one line — the one builder behind `top`'s log, `logs` and
 * the demo's log:
 *
 *   14:03:07 sonnet       200   812ms work-max 402 → personal-pro/claude-sonnet-4-5 ok
 *
 * time, route, status, latency, then the attempts as a path: each attempt
 * names its seat and outcome; the one whose response the agent got (and any
 * seat tried twice) is written `seat/model`; a probe attempt says `probe`.
 * The result is toned segments: `top` paints them with its theme, the line
 * commands with chalk (./segment.ts).
 */
export interface DecisionLineOptions {
  /** the time column (default: local time of day) */
  time?: (ts: number) => string;
  /** columns of the route (longer names end in `…`) */
  routeWidth?: number;
  /** columns of the latency */
  latencyWidth?: number;
  /** the most columns the line may take: a path that does not fit names the server by seat, then the line is cut with `…` */
  width?: number;
  /** say `stream` after a streamed request */
  markStream?: boolean;
}

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

function outcomeTone(attempt: Attempt): Tone {
  switch (attempt.outcome) {
    case 'ok':
      return 'ok';
    case 'http_429':
    case 'http_4xx':
    case 'aborted':
      return 'warn';
    default:
      return 'bad';
  }
}

function statusTone(status: number): Tone {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 499) return 'muted';
  if (status >= 500) return 'bad';
  return 'warn';
}

/** Local wall-clock time of day, `14:03:27`. */
function timeOfDay(ts: number): string {
  const d = new Date(ts);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

/** How long a request took: `812ms`, and whole seconds past 100 s (`123s`). */
export function formatLatency(ms: number): string {
  return ms < 100_000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 1000)}s`;
}

/** A decision that sent nothing upstream, in words. */
function whyNoAttempt(decision: DecisionEvent): string {
  if (decision.route === null) return 'no model in the request';
  if (decision.status === 404) return 'unknown route';
  if (decision.status === 499) return 'agent hung up before any attempt';
  if (decision.status === 400) return 'rejected: bad request';
  if (decision.skipped) return 'background request skipped: every target held back';
  return 'no upstream attempt';
}

/**
 * `servedInFull: false` writes the serving attempt as its seat alone, for a
 * narrow line: `a 402 → b 429 → c ok` rather than cutting `c/model` in half.
 */
function pathSegments(decision: DecisionEvent, servedInFull: boolean): Segment[] {
  const { attempts } = decision;
  if (attempts.length === 0) return [seg(whyNoAttempt(decision), 'muted')];
  const seats = attempts.map((a) => a.seat);
  const probed = new Set(decision.chain.filter((c) => c.state === 'probe').map((c) => `${c.seat}/${c.model}`));
  const out: Segment[] = [];
  attempts.forEach((attempt, i) => {
    if (i > 0) out.push(seg(' → ', 'muted'));
    const target = `${attempt.seat}/${attempt.model}`;
    const served = decision.served_by === target && i === attempts.length - 1;
    const twice = seats.indexOf(attempt.seat) !== seats.lastIndexOf(attempt.seat);
    out.push(seg((served && servedInFull) || twice ? target : attempt.seat));
    if (probed.has(target)) out.push(seg(' probe', 'probe'));
    out.push(seg(' '), seg(outcomeWord(attempt), outcomeTone(attempt)));
  });
  return out;
}

function marks(decision: DecisionEvent, options: DecisionLineOptions): Segment[] {
  const out: Segment[] = [];
  if (decision.fail_open) out.push(seg(' (fail-open)', 'warn'));
  if (options.markStream && decision.stream) out.push(seg(' stream', 'muted'));
  return out;
}

export function decisionSegments(decision: DecisionEvent, options: DecisionLineOptions = {}): readonly Segment[] {
  const time = options.time ?? timeOfDay;
  const lead = [
    seg(time(decision.ts), 'muted'),
    seg(' '),
    seg(fit(decision.route ?? '—', options.routeWidth ?? 12), 'title'),
    seg(' '),
    seg(String(decision.status).padStart(3), statusTone(decision.status)),
    seg(' '),
    seg(formatLatency(decision.duration_ms).padStart(options.latencyWidth ?? 7), 'muted'),
    seg(' '),
  ];
  const tail = marks(decision, options);
  const full = [...lead, ...pathSegments(decision, true), ...tail];
  if (options.width === undefined || textWidth(segmentsText(full)) <= options.width) return full;
  return clipSegments([...lead, ...pathSegments(decision, false), ...tail], options.width);
}
