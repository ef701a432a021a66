import type { DecisionEvent } from '@routeplane/shared';
import { localDay } from './time-bounds.js';

/**
 * `routeplane usage`'s grouping and totals, pure: decisions in (in any
 * order), one row per group out. A decision counts in the row of the target
 * that served it (`served_by`: the one whose answer the agent got, an error
 * relayed when all failed included), or, when none did, of the last target
 * attempted — its fail-over counts there too. Served means a 2xx status;
 * failed, every other. A fail-over is a decision that tried more than one
 * target (retries of one target are not). Cost is the sum of the decisions'
 * costs; null when no decision of the group had a price.
 */
export const USAGE_BY = ['seat', 'target', 'route', 'agent', 'session', 'day'] as const;
export type UsageBy = (typeof USAGE_BY)[number];

export interface UsageTokens {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface UsageFigures {
  requests: number;
  served: number;
  failed: number;
  failovers: number;
  tokens: UsageTokens;
  cost: number | null;
}

export interface UsageRow extends UsageFigures {
  /** the seat id, `seat/model`, the route, the agent, the session or the local day; null for decisions without one */
  key: string | null;
}

export interface UsageReport {
  /** epoch ms, inclusive */
  since: number;
  /** epoch ms, exclusive */
  until: number;
  by: UsageBy;
  currency: string;
  /** by requests, largest first */
  rows: UsageRow[];
  total: UsageFigures;
}

/** The target a decision counts against, `seat/model`: who served it, else the last one attempted. */
export function countedTarget(d: DecisionEvent): string | null {
  if (d.served_by !== null) return d.served_by;
  const last = d.attempts[d.attempts.length - 1];
  return last === undefined ? null : `${last.seat}/${last.model}`;
}

function keyOf(d: DecisionEvent, by: UsageBy, dayOf: (ts: number) => string): string | null {
  switch (by) {
    case 'seat': {
      const target = countedTarget(d);
      return target === null ? null : target.slice(0, target.indexOf('/'));
    }
    case 'target':
      return countedTarget(d);
    case 'route':
      return d.route;
    case 'agent':
      return d.agent;
    case 'session':
      return d.session;
    case 'day':
      return dayOf(d.ts);
  }
}

function emptyFigures(): UsageFigures {
  return { requests: 0, served: 0, failed: 0, failovers: 0, tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 }, cost: null };
}

/** More than one target tried: retries of one target are not a fail-over. */
function failedOver(d: DecisionEvent): boolean {
  const first = d.attempts[0];
  return first !== undefined && d.attempts.some((a) => a.seat !== first.seat || a.model !== first.model);
}

function addTo(f: UsageFigures, d: DecisionEvent): void {
  f.requests += 1;
  if (d.status >= 200 && d.status < 300) f.served += 1;
  else f.failed += 1;
  if (failedOver(d)) f.failovers += 1;
  const u = d.usage;
  if (u !== null) {
    f.tokens.input += u.input_tokens ?? 0;
    f.tokens.output += u.output_tokens ?? 0;
    f.tokens.cache_read += u.cache_read_tokens ?? 0;
    f.tokens.cache_write += u.cache_write_tokens ?? 0;
  }
  // a line written before decisions carried a cost has none: unpriced
  if (typeof d.cost === 'number') f.cost = roundCost((f.cost ?? 0) + d.cost);
}

/** Sums of costs to a billionth, as each cost is: 0.3, not 0.30000000000000004. */
function roundCost(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

export class UsageTally {
  private readonly groups = new Map<string | null, UsageFigures>();
  private readonly total = emptyFigures();

  constructor(
    private readonly by: UsageBy,
    private readonly window: { since: number; until: number },
    /** the local day of a time (injected: tests pin the zone) */
    private readonly dayOf: (ts: number) => string = localDay,
  ) {}

  /** Counts `d` when it falls in [since, until). */
  add(d: DecisionEvent): void {
    if (d.ts < this.window.since || d.ts >= this.window.until) return;
    const key = keyOf(d, this.by, this.dayOf);
    let group = this.groups.get(key);
    if (group === undefined) {
      group = emptyFigures();
      this.groups.set(key, group);
    }
    addTo(group, d);
    addTo(this.total, d);
  }

  report(currency: string): UsageReport {
    const rows = [...this.groups]
      .map(([key, figures]): UsageRow => ({ key, ...figures }))
      .sort((a, b) => b.requests - a.requests || compareKeys(a.key, b.key));
    return { since: this.window.since, until: this.window.until, by: this.by, currency, rows, total: this.total };
  }
}

/** Ties in key order; a row without a key last. */
function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
