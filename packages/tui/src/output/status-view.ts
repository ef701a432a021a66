import type { BreakerScope, OpenBreaker, StatusSummary, TripReason } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';
import { formatRemaining } from './duration.js';

const SCOPE_WORDS: Record<BreakerScope, string> = {
  seat_credit: 'seat credit',
  seat_rate_limit: 'rate limit',
  model: 'model',
};

const REASON_WORDS: Record<TripReason, string> = {
  credit: 'out of credit (402)',
  rate_limit: 'rate-limited (429)',
  model_errors: 'failing (5xx/timeout)',
};

function target(breaker: OpenBreaker): string {
  return breaker.model === null ? `${breaker.seat} (whole seat)` : `${breaker.seat}/${breaker.model}`;
}

/** Time left, counted from the daemon's own `now` so clock skew cannot show. */
function remaining(breaker: OpenBreaker, now: number): string {
  const left = breaker.until - now;
  if (left > 0) return formatRemaining(left);
  return breaker.scope === 'seat_rate_limit' ? 'ending' : 'probe ready';
}

/** The health summary as lines for a person: a one-liner when all is well, a table otherwise. */
export function formatStatus(status: StatusSummary, influenceEnabled: boolean, colour: ChalkInstance): string[] {
  if (!influenceEnabled) return [`${colour.dim('○')} routing influence is disabled — no breakers, chains route in configured order`];
  if (status.open.length === 0) return [`${colour.green('●')} all clear — no open breakers, every chain routes in configured order`];

  const header = ['SCOPE', 'TARGET', 'REASON', 'REFUSED', 'REMAINING'];
  const rows = status.open.map((b) => [
    SCOPE_WORDS[b.scope],
    target(b),
    REASON_WORDS[b.reason],
    String(b.refused_count),
    remaining(b, status.now),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((cell, i) => (i === 3 ? cell.padStart(widths[i] as number) : cell.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const count = status.open.length;
  return [
    `${colour.red('●')} ${count} open breaker${count === 1 ? '' : 's'} — these targets route last until they recover`,
    colour.dim(line(header)),
    ...rows.map(line),
  ];
}
