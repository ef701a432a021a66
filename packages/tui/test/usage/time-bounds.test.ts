import { describe, expect, it } from 'vitest';
import { localDay, localMinute, parseTimeBound } from '../../src/usage/time-bounds.js';

/** `--since` / `--until`: a duration back from now, or a local date or time (read in this machine's zone). */
const NOW = new Date(2026, 10, 30, 14, 2, 0).getTime();

describe('parseTimeBound', () => {
  it.each([
    ['30m', NOW - 30 * 60_000],
    ['24h', NOW - 24 * 3_600_000],
    ['7d', NOW - 7 * 86_400_000],
    ['1.5h', NOW - 90 * 60_000],
    ['2026-11-30', new Date(2026, 10, 30).getTime()],
    ['2026-11-29 09:30', new Date(2026, 10, 29, 9, 30).getTime()],
    ['2026-11-29T09:30', new Date(2026, 10, 29, 9, 30).getTime()],
  ])('%s', (text, at) => {
    expect(parseTimeBound(text, NOW)).toEqual({ ok: true, at });
  });

  it.each([
    [
      'yesterday',
      'expected a duration back from now (30m, 24h, 7d) or a local date or time (2026-11-30, "2026-11-30 14:02"), got "yesterday"',
    ],
    ['24', 'expected a duration back from now (30m, 24h, 7d) or a local date or time (2026-11-30, "2026-11-30 14:02"), got "24"'],
    ['2026-02-30', '"2026-02-30" is not a date or time that exists'],
    ['2026-11-30 25:00', '"2026-11-30 25:00" is not a date or time that exists'],
  ])('%s is refused in words', (text, message) => {
    expect(parseTimeBound(text, NOW)).toEqual({ ok: false, message });
  });

  it('writes times back as people typed them', () => {
    expect(localDay(NOW)).toBe('2026-11-30');
    expect(localMinute(NOW)).toBe('2026-11-30 14:02');
  });
});
