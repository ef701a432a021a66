import { middleCut } from '../output/decision-line.js';
import { textWidth } from '../output/text.js';
import { tokenCount } from '../output/token-count.js';
import { localMinute } from './time-bounds.js';
import type { UsageFigures, UsageReport } from './usage-tally.js';

/**
 * `routeplane usage` for a person, in 80 columns:
 *
 *   usage by seat, 2026-11-29 14:02 → 2026-11-30 14:02, costs in USD
 *           ──────── requests ────────  ─────────── tokens ───────────
 *   seat    all  served  failed  f-o     in    out  c-read  c-write    cost  share
 *   max-2     3       2       1    2    600     60       0        0       —    40%
 *   max-1     2       2       0    0     3k    300      5k      300  0.0161    40%
 *   total     5       4       1    2   3.6k    360      5k      300  0.0161   100%
 *   f-o: fail-overs · c-read, c-write: cache tokens · share: of the requests served
 *
 * Numbers right-aligned, each column as wide as its widest cell; the key
 * column takes what is left and cuts a long name in its middle. `—` for a
 * group without a key, and for a cost when no decision of the group had a
 * price.
 */
export const USAGE_WIDTH = 80;

const GROUPS: ReadonlyArray<readonly [label: string, first: number, last: number]> = [
  ['requests', 1, 4],
  ['tokens', 5, 8],
];

/** A cost as people read it: cents above one unit, four decimals below (one request costs fractions of a cent). */
export function formatCost(cost: number | null): string {
  if (cost === null) return '—';
  return cost >= 1 ? cost.toFixed(2) : cost.toFixed(4);
}

function cells(f: UsageFigures): string[] {
  return [
    String(f.requests),
    String(f.served),
    String(f.failed),
    String(f.failovers),
    tokenCount(f.tokens.input),
    tokenCount(f.tokens.output),
    tokenCount(f.tokens.cache_read),
    tokenCount(f.tokens.cache_write),
    formatCost(f.cost),
  ];
}

function share(served: number, total: number): string {
  return total === 0 ? '—' : `${Math.round((served / total) * 100)}%`;
}

export function usageTable(report: UsageReport): string[] {
  const bySeat = report.by === 'seat';
  const header = [report.by, 'all', 'served', 'failed', 'f-o', 'in', 'out', 'c-read', 'c-write', 'cost', ...(bySeat ? ['share'] : [])];
  const rows = report.rows.map((r) => [r.key ?? '—', ...cells(r), ...(bySeat ? [share(r.served, report.total.served)] : [])]);
  const total = ['total', ...cells(report.total), ...(bySeat ? [report.total.served === 0 ? '—' : '100%'] : [])];
  const all = [header, ...rows, total];
  const widths = header.map((_, i) => Math.max(...all.map((r) => textWidth(r[i] ?? ''))));
  // two spaces between columns when they fit, else one; then the key column takes what is left
  const gap = widths.reduce((n, w) => n + w, 0) + 2 * (widths.length - 1) <= USAGE_WIDTH ? 2 : 1;
  const others = widths.slice(1).reduce((n, w) => n + w + gap, 0);
  widths[0] = Math.max(4, Math.min(widths[0]!, USAGE_WIDTH - others));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === 0 ? middleCut(cell, widths[0]!).padEnd(widths[0]!) : cell.padStart(widths[i]!)))
      .join(' '.repeat(gap))
      .trimEnd();
  const to = report.until;
  return [
    `usage by ${report.by}, ${localMinute(report.since)} → ${localMinute(to)}, costs in ${report.currency}`,
    groupLine(widths, gap),
    line(header),
    ...rows.map(line),
    line(total),
    `f-o: fail-overs · c-read, c-write: cache tokens${bySeat ? ' · share: of the requests served' : ''}`,
  ].map((l) => l.slice(0, USAGE_WIDTH));
}

/** `──── requests ────` over its columns, `──── tokens ────` over theirs. */
function groupLine(widths: readonly number[], gap: number): string {
  const startOf = (i: number) => widths.slice(0, i).reduce((n, w) => n + w + gap, 0);
  let out = '';
  for (const [label, first, last] of GROUPS) {
    const from = startOf(first);
    const span = startOf(last) + widths[last]! - from;
    const dashes = Math.max(0, span - label.length - 2);
    const left = Math.floor(dashes / 2);
    out = out.padEnd(from) + `${'─'.repeat(left)} ${label} ${'─'.repeat(dashes - left)}`;
  }
  return out;
}
