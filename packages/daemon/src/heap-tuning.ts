import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last full
 * collection before it starts the next one — fixed at 200% (a factor of 3)
 * while agents send big bodies fast, V8's own choice the rest of the time.
 *
 * Why: V8 picks the factor from how fast objects are promoted. With big
 * bodies a proxy promotes few, so V8 lands near its floor (1.1–1.5), yet most
 * of the proxy's garbage is then request and socket buffers, memory outside
 * the heap that V8 counts toward the same limit. At 200 KB bodies the buffers alone reached it
 * every ~60 ms: a full mark-compact of the ~20 MB heap each time (bench, 200 KB
 * at c=16: 17–40 mark-compacts in 3 s and 650–1,390 µs of CPU per request,
 * against 1–2 and ~500 µs with the factor at 3; bench/NOTES.md). Fixed all the
 * time, the factor costs memory where it buys nothing: the soak, small bodies,
 * ended 30 MB higher (125 → 159 MB against 128 → 129 MB). So it is fixed only
 * while the body rate says the buffers will drive the collections.
 */

/** The fixed factor's flag value (V8's own ceiling on a machine with a few GB is 4, i.e. 300). */
export const FIXED_GROWING_PERCENT = 200;
/** The flag's default: V8 computes the factor itself. */
export const V8_GROWING_PERCENT = 0;

export interface HeapGrowthThresholds {
  /** body bytes per second at or above which the factor is fixed */
  readonly onAtBytesPerSec: number;
  /** below this, for `holdMs` without a busier sample, V8 chooses again */
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

/** Pure: from body-rate samples to the flag value to set, only when it changes. */
export class HeapGrowthPolicy {
  private fixed = false;
  private busyAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly thresholds: HeapGrowthThresholds = DEFAULT_THRESHOLDS) {}

  /** `bytes` received over the `elapsedMs` before `now` → the new growing percent, or null to leave it. */
  sample(bytes: number, elapsedMs: number, now: number): number | null {
    const rate = elapsedMs > 0 ? (bytes * 1000) / elapsedMs : 0;
    const { onAtBytesPerSec, offBelowBytesPerSec, holdMs } = this.thresholds;
    if (rate >= onAtBytesPerSec || (this.fixed && rate >= offBelowBytesPerSec)) this.busyAt = now;
    if (!this.fixed && rate >= onAtBytesPerSec) {
      this.fixed = true;
      return FIXED_GROWING_PERCENT;
    }
    if (this.fixed && now - this.busyAt >= holdMs) {
      this.fixed = false;
      return V8_GROWING_PERCENT;
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
 * Samples `receivedBodyBytes` (a running total) every `intervalMs` and sets
 * V8's flag when the policy says so. For the process that runs the daemon
 * (`routeplane serve`): the flag applies to the whole process, so
 * `startDaemon` does not start this on its own. The timer never keeps the
 * process alive.
 */
export function startHeapTuning(receivedBodyBytes: () => number, opts: HeapTuningOptions = {}): HeapTuning {
  const setFlags = opts.setFlags ?? setFlagsFromString;
  const now = opts.now ?? (() => performance.now());
  const policy = new HeapGrowthPolicy(opts.thresholds);
  let lastBytes = receivedBodyBytes();
  let lastAt = now();
  let current = V8_GROWING_PERCENT;
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
