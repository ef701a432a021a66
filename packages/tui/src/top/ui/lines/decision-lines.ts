import type { DecisionEvent } from '@routeplane/shared';
import { decisionSegments, formatLatency, outcomeWord } from '../../../output/decision-line.js';
import { seg } from '../../../output/segment.js';
import { textWidth } from '../../../output/text.js';
import type { DecisionEntry } from '../../store/monitor-state.js';
import { line, type Line } from './line.js';

/**
 * The decision log's rows, newest last (a tail), one per decision as
 * ../../../output/decision-line.ts writes it, in columns as wide as the
 * rows shown need:
 *
 *   14:03:07 sonnet 200 812ms work-max 402 → personal-pro/claude-sonnet-5 ok
 */
const ROUTE_MAX = 16;

/** The text a `/` filter is matched against: route, seats, models, served_by, statuses. */
function filterHaystack(decision: DecisionEvent): string {
  const parts = [decision.route ?? '', decision.served_by ?? '', String(decision.status)];
  for (const a of decision.attempts) parts.push(a.seat, a.model, `${a.seat}/${a.model}`, outcomeWord(a));
  return parts.join('\n').toLowerCase();
}

export function matchesFilter(decision: DecisionEvent, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  return needle === '' || filterHaystack(decision).includes(needle);
}

/** `selectedId` marks one line (the log has the focus): `›` and the time highlighted. */
export function decisionLines(entries: readonly DecisionEntry[], options: { width: number; selectedId?: string | null }): Line[] {
  const { width } = options;
  if (entries.length === 0) return [];
  const routeWidth = Math.min(
    Math.max(ROUTE_MAX, Math.floor(width / 6)),
    Math.max(5, ...entries.map((e) => textWidth(e.event.route ?? '—'))),
  );
  const latencyWidth = Math.max(5, ...entries.map((e) => formatLatency(e.event.duration_ms).length));
  return entries.map(({ id, event }) => {
    const segments = decisionSegments(event, { routeWidth, latencyWidth, width: width - 1 });
    if (id !== options.selectedId) return line([seg(' '), ...segments], `decision:${id}`);
    const [time, ...rest] = segments;
    return line([seg('›', 'key'), ...(time ? [seg(time.text, 'selected')] : []), ...rest], `decision:${id}`);
  });
}
