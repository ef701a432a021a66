import { describe, expect, it } from 'vitest';
import { formatDuration } from '../src/duration-words.js';

describe('formatDuration', () => {
  it.each([
    [0, 'up', '0s'],
    [1, 'up', '1s'],
    [1, 'down', '0s'],
    [41_000, 'down', '41s'],
    [41_999, 'down', '41s'],
    [41_001, 'up', '42s'],
    [185_000, 'down', '3m05s'],
    [3_660_000, 'down', '1h01m'],
    [3_719_999, 'down', '1h01m'],
    [(2 * 24 + 3) * 3_600_000 + 59_000, 'down', '2d03h'],
    [-5_000, 'up', '0s'],
    [Number.NaN, 'up', '0s'],
  ] as const)('%d ms rounded %s → %s', (ms, rounding, words) => {
    expect(formatDuration(ms, rounding)).toBe(words);
  });
});
