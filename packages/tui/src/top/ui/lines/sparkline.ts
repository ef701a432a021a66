import type { SeatActivity } from '../../store/seat-activity.js';

/**
 * A seat's attempts over the last 2 minutes, one column per 5 s bucket.
 * Height is the number of attempts, scaled to
 * the busiest bucket on screen so seats compare; a bucket in which any
 * attempt failed is drawn in dots instead of a solid bar, so failures read
 * without colour (NO_COLOR); an empty bucket is a dot on the baseline.
 *
 *   ··▁▂▃▅▇█⣿⣶⣤▃▂▁
 */
const OK_BARS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const FAILED_BARS = ['⣀', '⣀', '⣤', '⣤', '⣶', '⣶', '⣿', '⣿'];
export const EMPTY_BUCKET = '·';

export interface SparkCell {
  readonly glyph: string;
  readonly failed: boolean;
}

/** The busiest bucket's attempts among every seat shown (at least 1). */
export function sparkScale(activities: Iterable<SeatActivity>): number {
  let max = 1;
  for (const activity of activities) for (const b of activity) max = Math.max(max, b.ok + b.failed);
  return max;
}

export function sparkCells(activity: SeatActivity, scale: number): SparkCell[] {
  return activity.map((b) => {
    const total = b.ok + b.failed;
    if (total === 0) return { glyph: EMPTY_BUCKET, failed: false };
    const level = Math.min(OK_BARS.length - 1, Math.max(0, Math.ceil((total / scale) * OK_BARS.length) - 1));
    return b.failed > 0 ? { glyph: FAILED_BARS[level]!, failed: true } : { glyph: OK_BARS[level]!, failed: false };
  });
}

/** For the `?` help: what the glyphs mean. */
export const SPARK_LEGEND = { ok: OK_BARS.filter((_, i) => i % 2 === 1).join(''), failed: '⣀⣤⣶⣿' };
