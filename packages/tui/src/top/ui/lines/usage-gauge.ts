import { formatDuration, type SeatUsage, type UsageWindow } from '@routeplane/shared';
import type { Tone } from '../../../output/segment.js';
import { textWidth } from '../../../output/text.js';

/**
 * A seat's binding usage window as a gauge:
 * the window closest to full, because that is the one that will stop the
 * seat first. It degrades cleanly with the width there is:
 *
 *   full    5h [||||||····] 62% resets 2h14m
 *   short   5h 62%
 *   narrow  62%
 *
 * Usage is what the provider reported:
 * shown, never acted on.
 */
export type GaugeLevel = 'full' | 'short' | 'narrow';
export const GAUGE_LEVELS: readonly GaugeLevel[] = ['full', 'short', 'narrow'];

const BAR_CELLS = 10;

/** The window closest to full; the first reported wins a tie. */
export function bindingWindow(usage: SeatUsage | null): UsageWindow | null {
  if (!usage || usage.windows.length === 0) return null;
  let binding = usage.windows[0]!;
  for (const w of usage.windows) if (w.utilization > binding.utilization) binding = w;
  return binding;
}

export function percent(utilization: number): string {
  return `${Math.round(Math.max(0, utilization) * 100)}%`;
}

/** Past 90 % (or refused by the provider) a window is about to stop the seat; past 75 % it is worth a look. */
export function gaugeTone(window: UsageWindow): Tone {
  if (window.utilization >= 0.9 || window.status === 'rejected') return 'bad';
  return window.utilization >= 0.75 ? 'warn' : 'ok';
}

export function gaugeText(window: UsageWindow, level: GaugeLevel, now: number): string {
  const pct = percent(window.utilization);
  switch (level) {
    case 'narrow':
      return pct;
    case 'short':
      return `${window.name} ${pct}`;
    case 'full': {
      const filled = Math.min(BAR_CELLS, Math.max(0, Math.round(window.utilization * BAR_CELLS)));
      const bar = `[${'|'.repeat(filled)}${'·'.repeat(BAR_CELLS - filled)}]`;
      const resets = window.reset_at === null ? '' : ` resets ${formatDuration(window.reset_at - now)}`;
      return `${window.name} ${bar} ${pct}${resets}`;
    }
  }
}

/** The widest any of `windows` is at `level`. */
export function gaugeWidth(windows: readonly (UsageWindow | null)[], level: GaugeLevel, now: number): number {
  let widest = 0;
  for (const w of windows) if (w) widest = Math.max(widest, textWidth(gaugeText(w, level, now)));
  return widest;
}
