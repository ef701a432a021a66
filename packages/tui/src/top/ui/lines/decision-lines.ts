import type { Attempt, DecisionEvent } from '@routeplane/shared';
import type { DecisionEntry } from '../../store/monitor-store.js';
import { outcomeWord } from '../../../output/decision-line.js';
import { formatClock } from '../format.js';
import { fit, textWidth } from '../text.js';
import type { Tone } from '../theme.js';
import { clipLine, line, lineWidth, seg, type Line, type Segment } from './line.js';

/**
 * The decision log's rows, newest last (a tail):
 *
 *   14:03:07 sonnet   200   812ms work-max 402 → personal/claude-sonnet-4-5 ok
 *
 * The path names each attempted seat with its outcome; the attempt whose
 * response the agent got (served_by) is written in full as `seat/model`.
 */
const ROUTE_MAX = 16;

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

export function statusTone(status: number): Tone {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 499) return 'muted';
  if (status >= 500) return 'bad';
  return 'warn';
}

export function formatDuration(ms: number): string {
  return ms < 100_000 ? `${Math.round(ms)}ms` : `${Math.round(ms / 1000)}s`;
}

/** A decision that sent nothing upstream, in words. */
function whyNoAttempt(decision: DecisionEvent): string {
  if (decision.route === null) return 'no model in the request';
  if (decision.status === 404) return 'unknown route';
  if (decision.status === 499) return 'agent hung up before any attempt';
  if (decision.status === 400) return 'rejected: bad request';
  return 'no upstream attempt';
}

/**
 * `servedInFull: false` writes the serving attempt as its seat alone, for a
 * narrow screen: `a 402 → b 429 → c ok` rather than cutting `c/model` in half.
 */
export function pathSegments(decision: DecisionEvent, servedInFull = true): Segment[] {
  if (decision.attempts.length === 0) return [seg(whyNoAttempt(decision), 'muted')];
  const out: Segment[] = [];
  decision.attempts.forEach((attempt, i) => {
    if (i > 0) out.push(seg(' → ', 'muted'));
    const target = `${attempt.seat}/${attempt.model}`;
    const served = decision.served_by === target && i === decision.attempts.length - 1;
    out.push(seg(served && servedInFull ? target : attempt.seat), seg(' '), seg(outcomeWord(attempt), outcomeTone(attempt)));
  });
  if (decision.fail_open) out.push(seg(' (fail-open)', 'warn'));
  return out;
}

/** The text a `/` filter is matched against: route, seats, models, served_by, statuses. */
export function filterHaystack(decision: DecisionEvent): string {
  const parts = [decision.route ?? '', decision.served_by ?? '', String(decision.status)];
  for (const a of decision.attempts) parts.push(a.seat, a.model, `${a.seat}/${a.model}`, outcomeWord(a));
  return parts.join('\n').toLowerCase();
}

export function matchesFilter(decision: DecisionEvent, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  return needle === '' || filterHaystack(decision).includes(needle);
}

export function decisionLines(entries: readonly DecisionEntry[], options: { width: number }): Line[] {
  const { width } = options;
  if (entries.length === 0) return [];
  const routeW = Math.min(ROUTE_MAX, Math.max(5, ...entries.map((e) => textWidth(e.event.route ?? '—'))));
  const msW = Math.max(5, ...entries.map((e) => formatDuration(e.event.duration_ms).length));
  return entries.map(({ event }) => {
    const lead = [
      seg(' '),
      seg(formatClock(event.ts), 'muted'),
      seg(' '),
      seg(fit(event.route ?? '—', routeW), 'title'),
      seg(' '),
      seg(String(event.status).padStart(3), statusTone(event.status)),
      seg(' '),
      seg(formatDuration(event.duration_ms).padStart(msW), 'muted'),
      seg(' '),
    ];
    const full = line([...lead, ...pathSegments(event)]);
    return clipLine(lineWidth(full) <= width ? full : line([...lead, ...pathSegments(event, false)]), width);
  });
}
