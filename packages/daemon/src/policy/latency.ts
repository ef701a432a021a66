import type { PlanEntry } from '../breaker/types.js';

/** α of the moving average. */
const ALPHA = 0.2;

/**
 * `balance: latency`: each target's exponentially weighted mean time to first
 * byte over its recent `ok` attempts, fastest first; targets without a sample
 * sort last in configured order. Opt-in: no other order scores latency.
 * Kept per daemon (never shared).
 */
export class LatencyTracker {
  private readonly means = new Map<string, number>();

  observe(label: string, ms: number): void {
    const prev = this.means.get(label);
    this.means.set(label, prev === undefined ? ms : prev + ALPHA * (ms - prev));
  }

  mean(label: string): number | undefined {
    return this.means.get(label);
  }

  /** `entries` (configured order) fastest first; unsampled last, in configured order. */
  order(entries: readonly PlanEntry[]): PlanEntry[] {
    return entries
      .map((e, i) => ({ e, i, m: this.means.get(e.keys.label) ?? Number.POSITIVE_INFINITY }))
      .sort((a, b) => a.m - b.m || a.i - b.i)
      .map(({ e }) => e);
  }
}
