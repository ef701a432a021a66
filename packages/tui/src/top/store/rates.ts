/**
 * Requests per second, fail-overs per minute and the background lane's work
 * per minute, from decision events, kept in one-second
 * buckets so a flood of events costs O(1) memory per second.
 *
 * A fail-over is one hop to a next target: a decision with three attempts
 * counts two. A skipped background request (503, no attempt) counts as
 * background work and as skipped.
 */
const MINUTE_SECONDS = 60;
/** requests/s is averaged over this many seconds: steady, yet still live. */
const REQUEST_RATE_WINDOW_SECONDS = 10;

interface Bucket {
  requests: number;
  failovers: number;
  background: number;
  skipped: number;
}

export interface Rates {
  requestsPerSec: number;
  failoversPerMin: number;
  /** background-lane requests in the last minute */
  backgroundPerMin: number;
  /** of those, skipped because every target was held back */
  skippedPerMin: number;
}

export interface RecordedDecision {
  ts: number;
  attempts: number;
  background: boolean;
  skipped: boolean;
}

export class RateCounter {
  private readonly buckets = new Map<number, Bucket>();
  /** first second we could have seen events for: a young window is averaged over what it covers. */
  private firstSecond: number | null = null;

  /** Starts (or restarts, after a reconnect) the observation window. */
  begin(now: number): void {
    this.firstSecond = Math.floor(now / 1000);
  }

  record(decision: RecordedDecision): void {
    const second = Math.floor(decision.ts / 1000);
    let bucket = this.buckets.get(second);
    if (!bucket) this.buckets.set(second, (bucket = { requests: 0, failovers: 0, background: 0, skipped: 0 }));
    bucket.requests += 1;
    bucket.failovers += Math.max(0, decision.attempts - 1);
    if (decision.background) bucket.background += 1;
    if (decision.skipped) bucket.skipped += 1;
  }

  rates(now: number): Rates {
    const nowSecond = Math.floor(now / 1000);
    for (const second of this.buckets.keys()) {
      if (second <= nowSecond - MINUTE_SECONDS) this.buckets.delete(second);
    }
    const first = this.firstSecond ?? nowSecond;
    // Seconds observed within the window, counting the current partial one.
    const observed = Math.max(1, Math.min(REQUEST_RATE_WINDOW_SECONDS, nowSecond - first + 1));
    let requests = 0;
    let failovers = 0;
    let background = 0;
    let skipped = 0;
    for (const [second, bucket] of this.buckets) {
      if (second > nowSecond - observed && second <= nowSecond) requests += bucket.requests;
      if (second > nowSecond - MINUTE_SECONDS && second <= nowSecond) {
        failovers += bucket.failovers;
        background += bucket.background;
        skipped += bucket.skipped;
      }
    }
    return { requestsPerSec: requests / observed, failoversPerMin: failovers, backgroundPerMin: background, skippedPerMin: skipped };
  }
}
