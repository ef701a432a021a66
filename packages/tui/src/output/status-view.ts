import { type BreakerScope, formatDuration, type OpenBreaker, type StatusSummary, type TripReason } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';

const SCOPE_WORDS: Record<BreakerScope, string> = {
  seat_credit: 'seat credit',
  seat_rate_limit: 'rate limit',
  model: 'model',
  seat_quota: 'seat quota',
  model_quota: 'model quota',
  seat_key: 'seat key',
  provider_model: 'provider model',
};

const REASON_WORDS: Record<TripReason, string> = {
  credit: 'out of credit (402)',
  rate_limit: 'rate-limited (429)',
  model_errors: 'failing (5xx/timeout)',
  quota: 'out of quota',
  key_rejected: 'key rejected (401/403)',
  provider_errors: 'provider failing (5xx/timeout)',
};

function target(breaker: OpenBreaker): string {
  // a provider breaker has no seat: its key after the kind names it (`provider:URL/model`)
  if (breaker.seat === null) return breaker.key.slice(breaker.key.indexOf(':') + 1);
  return breaker.model === null ? `${breaker.seat} (whole seat)` : `${breaker.seat}/${breaker.model}`;
}

/** Time left, counted from the daemon's own `now` so clock skew cannot show. */
function remaining(breaker: OpenBreaker, now: number): string {
  if (breaker.until !== null && breaker.until > now) return formatDuration(breaker.until - now);
  if (breaker.kind === 'rate_limit') return 'ending';
  return breaker.phase === 'probing' ? 'probing' : 'probe ready';
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
