import type { SeatUsageCurve } from './schema.js';

/**
 * A seat's usage at scenario second `t`: its utilization (linear between the
 * curve's points, within each replay) and how many scenario seconds until
 * its window resets (the next `resets_at`, in this replay or the next).
 * Pure.
 */
export interface UsageNow {
  utilization: number;
  resetInSecs: number;
}

export function usageAt(curve: SeatUsageCurve, t: number, repeatEvery: number | null): UsageNow {
  const local = repeatEvery === null ? t : t % repeatEvery;
  return { utilization: utilizationAt(curve.points, local), resetInSecs: untilReset(curve.resets_at, local, repeatEvery) };
}

function utilizationAt(points: readonly (readonly [number, number])[], t: number): number {
  const first = points[0]!;
  if (t <= first[0]) return first[1];
  for (let i = 1; i < points.length; i += 1) {
    const [t1, u1] = points[i]!;
    const [t0, u0] = points[i - 1]!;
    // a point repeated at one second is a step: t never falls between them, the later value holds from then on
    if (t < t1) return u0 + ((u1 - u0) * (t - t0)) / (t1 - t0);
  }
  return points.at(-1)![1];
}

function untilReset(resetsAt: number, t: number, repeatEvery: number | null): number {
  if (t < resetsAt) return resetsAt - t;
  // past this replay's reset: the next replay's, or (played once) a window as long again
  return repeatEvery === null ? resetsAt : repeatEvery - t + resetsAt;
}
