import type { Attempt } from '@routeplane/shared';

/**
 * Each seat's recent attempts for its sparkline: the
 * last 2 minutes in buckets of 5 s, counting attempts that were answered ok
 * and attempts that failed. Fed by every decision the monitor sees (the
 * backfill included); memory is bounded by seats × 24 buckets.
 */
export const BUCKET_MS = 5_000;
export const BUCKETS = 24;

export interface ActivityBucket {
  readonly ok: number;
  readonly failed: number;
}

/** Oldest first, BUCKETS long; the last bucket is the one `now` falls in. */
export type SeatActivity = readonly ActivityBucket[];

const EMPTY: ActivityBucket = Object.freeze({ ok: 0, failed: 0 });

/** An attempt the agent gave up on says nothing about the seat; any other non-ok answer failed. */
function failed(attempt: Attempt): boolean | null {
  if (attempt.outcome === 'ok') return false;
  if (attempt.outcome === 'aborted') return null;
  return true;
}

export class ActivityCounter {
  /** seat → bucket number (ts / BUCKET_MS) → counts */
  private readonly seats = new Map<string, Map<number, { ok: number; failed: number }>>();
  private newest = -Infinity;

  record(ts: number, attempts: readonly Attempt[]): void {
    const bucket = Math.floor(ts / BUCKET_MS);
    if (bucket <= this.newest - BUCKETS) return;
    if (bucket > this.newest) this.newest = bucket;
    for (const attempt of attempts) {
      const verdict = failed(attempt);
      if (verdict === null) continue;
      let buckets = this.seats.get(attempt.seat);
      if (!buckets) this.seats.set(attempt.seat, (buckets = new Map()));
      let counts = buckets.get(bucket);
      if (!counts) buckets.set(bucket, (counts = { ok: 0, failed: 0 }));
      if (verdict) counts.failed += 1;
      else counts.ok += 1;
    }
  }

  /** Every seat's last BUCKETS buckets ending at `now`; older buckets are dropped. */
  activity(now: number): Map<string, SeatActivity> {
    const last = Math.floor(now / BUCKET_MS);
    const first = last - BUCKETS + 1;
    const out = new Map<string, SeatActivity>();
    for (const [seat, buckets] of this.seats) {
      const row: ActivityBucket[] = [];
      for (let b = first; b <= last; b += 1) row.push(buckets.get(b) ?? EMPTY);
      for (const b of buckets.keys()) if (b < first) buckets.delete(b);
      out.set(seat, row);
    }
    return out;
  }
}
