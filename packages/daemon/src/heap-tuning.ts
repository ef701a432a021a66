import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full
 * collection before it starts the next one: 100% (a factor of 2) at rest,
 * 200% (a factor of 3) while agents send big bodies fast.
 *
 * Why not V8's own choice: V8 picks the factor from how fast objects are
 * promoted and how cheap its collections are, and for a proxy it is wrong
 * both ways.
 * - With small bodies at a high rate, V8's factor runs high (its ceiling on
 *   a machine with a few GB is 4) and garbage piles up: over the bench's 2 KB
 *   cells the old generation went 19 → 96 MB without a full collection, and
 *   the c=256 streaming cell peaked at 187 MB of RSS. With the factor at 2 the
 *   same sequence peaked at 146 MB. CPU: an A/B/A of the 2 KB cells (bench
 *   `--compare`) could not tell it from the machine's noise, and six 2 KB SSE
 *   cells back to back put it at up to ≈5% (bench/NOTES.md).
 *   The price: under a lighter mixed load, where V8 would pick less than 2,
 *   the heap runs larger (`pnpm soak`: peak 141 MB against 125 MB). A cap
 *   would be better than a fixed value, but V8 has no flag for one.
 * - With big bodies a proxy promotes few objects, so V8 lands near its floor
 *   (1.1–1.5), yet most of its garbage is then request and socket buffers,
 *   memory outside the heap that V8 counts toward the same limit. At 200 KB
 *   bodies the buffers alone reached it every ~60 ms: a full mark-compact of
 *   the ~20 MB heap each time (bench, 200 KB at c=16: 17–40 mark-compacts in
 *   3 s and 650–1,390 µs of CPU per request, against 1–2 and ~500 µs with the
 *   factor at 3). Kept at 3 all the time, it costs memory where it buys
 *   nothing (a soak with small bodies ended 30 MB higher), so it is 3 only
 *   while the body rate says the buffers drive the collections.
 */

/** The factor while big bodies arrive fast. */
export const BIG_BODY_GROWING_PERCENT = 200;
/** The factor the rest of the time. */
export const RESTING_GROWING_PERCENT = 100;
/** The flag's default: V8 computes the factor itself (what `stop` gives back). */
export const V8_GROWING_PERCENT = 0;

export interface HeapGrowthThresholds {
  /** body bytes per second at or above which the big-body factor applies */
  readonly onAtBytesPerSec: number;
  /** below this, for `holdMs` without a busier sample, the factor goes back to rest */
  readonly offBelowBytesPerSec: number;
  readonly holdMs: number;
}

/**
 * 64 MiB/s is ~320 bodies of 200 KB a second, a third of the slowest rate
 * the slow mode was seen at (the bench's c=1 cell, ~1,000 a second); fifty
 * agents each sending 200 KB every few seconds stay far below it. The hold
 * keeps the factor through the pauses of a bursty load instead of flipping
 * it every second.
 */
export const DEFAULT_THRESHOLDS: HeapGrowthThresholds = {
  onAtBytesPerSec: 64 * 1024 * 1024,
  offBelowBytesPerSec: 16 * 1024 * 1024,
  holdMs: 30_000,
};

/** Pure: from body-rate samples to the flag value to set, only when it changes (it starts at rest). */
export class HeapGrowthPolicy {
  private bigBodies = false;
  private busyAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly thresholds: HeapGrowthThresholds = DEFAULT_THRESHOLDS) {}

  /** `bytes` received over the `elapsedMs` before `now` → the new growing percent, or null to leave it. */
  sample(bytes: number, elapsedMs: number, now: number): number | null {
    const rate = elapsedMs > 0 ? (bytes * 1000) / elapsedMs : 0;
    const { onAtBytesPerSec, offBelowBytesPerSec, holdMs } = this.thresholds;
    if (rate >= onAtBytesPerSec || (this.bigBodies && rate >= offBelowBytesPerSec)) this.busyAt = now;
    if (!this.bigBodies && rate >= onAtBytesPerSec) {
      this.bigBodies = true;
      return BIG_BODY_GROWING_PERCENT;
    }
    if (this.bigBodies && now - this.busyAt >= holdMs) {
      this.bigBodies = false;
      return RESTING_GROWING_PERCENT;
    }
    return null;
  }
}

export interface HeapTuningOptions {
  readonly intervalMs?: number;
  readonly thresholds?: HeapGrowthThresholds;
  /** where the flag goes; V8 by default (tests pass their own) */
  readonly setFlags?: (flags: string) => void;
  readonly now?: () => number;
}

export interface HeapTuning {
  stop(): void;
}

/**
 * Sets V8's flag to the resting factor, then samples `receivedBodyBytes` (a
 * running total) every `intervalMs` and sets the flag when the policy says
 * so. For the process that runs the daemon (`routeplane serve`): the flag
 * applies to the whole process, so
 * `startDaemon` does not start this on its own. The timer never keeps the
 * process alive.
 */
export function startHeapTuning(receivedBodyBytes: () => number, opts: HeapTuningOptions = {}): HeapTuning {
  const setFlags = opts.setFlags ?? setFlagsFromString;
  const now = opts.now ?? (() => performance.now());
  const policy = new HeapGrowthPolicy(opts.thresholds);
  let lastBytes = receivedBodyBytes();
  let lastAt = now();
  let current = RESTING_GROWING_PERCENT;
  setFlags(`--heap-growing-percent=${current}`);
  const timer = setInterval(() => {
    const bytes = receivedBodyBytes();
    const at = now();
    const next = policy.sample(bytes - lastBytes, at - lastAt, at);
    lastBytes = bytes;
    lastAt = at;
    if (next === null || next === current) return;
    current = next;
    setFlags(`--heap-growing-percent=${next}`);
  }, opts.intervalMs ?? 1000);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      if (current !== V8_GROWING_PERCENT) setFlags(`--heap-growing-percent=${V8_GROWING_PERCENT}`);
      current = V8_GROWING_PERCENT;
    },
  };
}
