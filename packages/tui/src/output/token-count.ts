import type { SeatTokens } from '@routeplane/shared';

/**
 * A token count in a few columns, as people read them: `842`, `1.2k`,
 * `340k`, `1.2M`, `34M`, `1.2B` — two significant figures at most below
 * ten of a unit, whole units above.
 */
export function tokenCount(n: number): string {
  const units: Array<[number, string]> = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, unit] of units) {
    if (n < size) continue;
    const v = n / size;
    // 9.96k would print as 10.0k: round first, then choose the form
    const tenths = Math.round(v * 10) / 10;
    return tenths < 10 ? `${tenths.toFixed(1).replace(/\.0$/, '')}${unit}` : `${Math.round(v)}${unit}`;
  }
  return String(Math.round(n));
}

/** What a seat's figure on one line counts: tokens in and out (cache counts differ by provider, see SeatTokens). */
export function tokensInOut(t: SeatTokens): number {
  return t.input + t.output;
}

/** `1.2M in · 340k out · 2.1M cache read · 12k cache write`, the cache parts only when there are any. */
export function tokenWords(t: SeatTokens): string {
  const parts = [`${tokenCount(t.input)} in`, `${tokenCount(t.output)} out`];
  if (t.cache_read > 0) parts.push(`${tokenCount(t.cache_read)} cache read`);
  if (t.cache_write > 0) parts.push(`${tokenCount(t.cache_write)} cache write`);
  return parts.join(' · ');
}
