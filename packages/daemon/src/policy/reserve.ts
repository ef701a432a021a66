import type { SeatUsage } from '@routeplane/shared';

/**
 * A seat's reserve: while any observed usage window
 * has `utilization ≥ 1 − reserve_pct/100` and a reset in the future,
 * background work treats the seat as held back until that reset. Returns
 * that reset (the latest of the windows over the line), or null.
 */
export function reserveUntil(usage: SeatUsage | null | undefined, reservePct: number, now: number): number | null {
  if (reservePct <= 0 || usage === null || usage === undefined) return null;
  const line = 1 - reservePct / 100;
  let until: number | null = null;
  for (const w of usage.windows) {
    if (w.utilization >= line && w.reset_at !== null && w.reset_at > now && (until === null || w.reset_at > until)) until = w.reset_at;
  }
  return until;
}
