import type { SeatUsage, UsageWindow } from '@routeplane/shared';

/**
 * A seat's usage after one more answer:
 * windows are merged by name — each answer updates the windows it reports and
 * leaves the others as they were — and `observed_at` is the time of the
 * latest answer that reported any. `extraUsage` is what the answer said about
 * extra usage (null: it said nothing, the last word stands). An answer that
 * reports nothing new changes nothing (the same object comes back, so a
 * caller can skip its update).
 */
export function mergeUsage(
  previous: SeatUsage | null,
  windows: readonly UsageWindow[],
  now: number,
  extraUsage: boolean | null = null,
): SeatUsage | null {
  const extra = extraUsage ?? previous?.extra_usage ?? null;
  if (windows.length === 0 && extra === (previous?.extra_usage ?? null)) return previous;
  if (previous === null) return { observed_at: now, windows: [...windows], extra_usage: extra };
  const merged = [...previous.windows];
  for (const window of windows) {
    const at = merged.findIndex((w) => w.name === window.name);
    if (at === -1) merged.push(window);
    else merged[at] = window;
  }
  return { observed_at: now, windows: merged, extra_usage: extra };
}
