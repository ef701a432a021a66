import { formatDuration, type OpenBreaker, type SeatUsage, type StatusSummary, type StoreInfo } from '@routeplane/shared';
import type { ChalkInstance } from 'chalk';
import { countWords, kindWords, leftWords, localWallClock, signalDetail, subjectWords, type WallClock } from './breaker-words.js';
import { bindingWindow, percent } from '../top/ui/lines/usage-gauge.js';
import { tokenWords } from './token-count.js';

/**
 * `routeplane status` for a person: the daemon, then its open breakers.
 *
 *   ● routeplane 0.4.0 · pid 4242 · up 2h03m
 *     url      http://127.0.0.1:4141
 *     config   /home/me/.config/routeplane/routeplane.yaml
 *     store    memory
 *     traffic  1520 requests · 12 failovers · 0 failed open
 *     tokens   max-a   1.2M in · 340k out · 2.1M cache read · 12k cache write
 *              seat-b  48k in · 9.1k out
 *     usage    max-a   5h 64% resets 16:00 · 7d 12% · extra usage
 *   ● 2 open breakers — these targets route last until they recover
 *     credit   max-a          402 billing_error        probe in 41s                  failed again 2
 *     quota    seat-b         429 usage_limit_reached  quota until 14:00 (in 2h14m)
 *
 * Times left are counted from the daemon's own `now`, so clock skew cannot show.
 */
export interface StatusViewOptions {
  influenceEnabled: boolean;
  colour: ChalkInstance;
  wallClock?: WallClock;
}

/** `memory`, `redis ok · 3 daemons`, `redis degraded for 12s` (as `top`'s header says it). */
export function storeWords(store: StoreInfo, now: number): string {
  if (store.kind === 'memory') return 'memory';
  if (store.state === 'degraded') return `redis degraded for ${formatDuration(Math.max(0, now - store.since))}`;
  return `redis ok · ${store.daemons} daemon${store.daemons === 1 ? '' : 's'}`;
}

function daemonLines(status: StatusSummary, colour: ChalkInstance, wallClock: WallClock): string[] {
  const d = status.daemon;
  const up = formatDuration(Math.max(0, status.now - d.started_at), 'down');
  return [
    `${colour.green('●')} routeplane ${d.version} · pid ${d.pid} · up ${up}`,
    `  url      ${d.http_url}`,
    `  config   ${d.config_path ?? 'none (started without a config file)'}`,
    `  store    ${storeWords(d.store, status.now)}`,
    `  traffic  ${status.counters.requests} requests · ${status.counters.failovers} failovers · ${status.counters.fail_open} failed open`,
    ...tokenLines(status.tokens),
    ...usageLines(status, wallClock),
  ];
}

/**
 * A seat's usage windows as the provider last reported them, as `top` shows
 * them: each window's share, the binding one (closest to full) with its
 * reset as a time of day, and `extra usage` when its last answer was billed
 * past the plan.
 */
export function usageWords(usage: SeatUsage, now: number, wallClock: WallClock = localWallClock): string {
  const binding = bindingWindow(usage);
  const parts = usage.windows.map((w) => {
    const resets = w === binding && w.reset_at !== null ? ` resets ${wallClock(w.reset_at, now)}` : '';
    return `${w.name} ${percent(w.utilization)}${resets}`;
  });
  // read defensively: a daemon that does not report it leaves it out
  if (usage.extra_usage === true) parts.push('extra usage');
  return parts.join(' · ');
}

/** Each seat whose provider reported usage windows, one line each; none from a daemon that does not send them. */
function usageLines(status: StatusSummary, wallClock: WallClock): string[] {
  const seats = (status.seats ?? []).flatMap((s) =>
    s.usage === null || s.usage.windows.length === 0 ? [] : [{ id: s.id, usage: s.usage }],
  );
  const width = Math.max(0, ...seats.map((s) => s.id.length));
  return seats.map((s, i) => `  ${i === 0 ? 'usage  ' : '       '}  ${s.id.padEnd(width)}  ${usageWords(s.usage, status.now, wallClock)}`);
}

/** Each seat that reported tokens, one line each; none from a daemon that does not count them. */
function tokenLines(tokens: StatusSummary['tokens']): string[] {
  if (tokens === undefined) return [];
  const seats = Object.entries(tokens).filter(([, t]) => t.input + t.output + t.cache_read + t.cache_write > 0);
  if (seats.length === 0) return ['  tokens   none reported yet'];
  const width = Math.max(...seats.map(([id]) => id.length));
  return seats.map(([id, t], i) => `  ${i === 0 ? 'tokens ' : '       '}  ${id.padEnd(width)}  ${tokenWords(t)}`);
}

function breakerRow(b: OpenBreaker, now: number, wallClock: WallClock): string[] {
  return [
    kindWords(b.key, b.seat),
    subjectWords(b),
    b.signal === null ? '' : signalDetail(b.signal),
    leftWords(b, now, wallClock) ?? '',
    countWords(b).join(', '),
  ];
}

/** Columns padded to their widest cell; a column empty in every row is left out. */
function table(rows: string[][]): string[] {
  const columns = (rows[0] ?? []).map((_, i) => i).filter((i) => rows.some((r) => (r[i] ?? '') !== ''));
  const widths = columns.map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((cells) => `  ${columns.map((i, c) => (cells[i] ?? '').padEnd(widths[c] ?? 0)).join('  ')}`.trimEnd());
}

export function formatStatus(status: StatusSummary, options: StatusViewOptions): string[] {
  const { colour } = options;
  const wallClock = options.wallClock ?? localWallClock;
  const lines = daemonLines(status, colour, wallClock);
  if (!options.influenceEnabled) {
    lines.push(`${colour.dim('○')} routing influence is disabled — no breakers, chains route in configured order`);
    return lines;
  }
  if (status.open.length === 0) {
    lines.push(`${colour.green('●')} all clear — no open breakers, every chain routes in configured order`);
    return lines;
  }
  const count = status.open.length;
  lines.push(`${colour.red('●')} ${count} open breaker${count === 1 ? '' : 's'} — these targets route last until they recover`);
  lines.push(...table(status.open.map((b) => breakerRow(b, status.now, wallClock))));
  return lines;
}
