import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/signals/retry-after.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('Retry-After parsing', () => {
  it('reads delta-seconds, decimals included', () => {
    expect(parseRetryAfter(undefined, '30', NOW)).toBe(30_000);
    expect(parseRetryAfter(undefined, '1.5', NOW)).toBe(1_500);
    expect(parseRetryAfter(undefined, ' 2 ', NOW)).toBe(2_000);
  });

  it('reads an HTTP-date as the time left until it', () => {
    expect(parseRetryAfter(undefined, new Date(NOW + 45_000).toUTCString(), NOW)).toBe(45_000);
    expect(parseRetryAfter(undefined, 'Wed, 01 Jan 2025 12:02:00 GMT', NOW)).toBe(120_000);
  });

  it('lets retry-after-ms win when present and usable', () => {
    expect(parseRetryAfter('2500', '60', NOW)).toBe(2_500);
    expect(parseRetryAfter('250.5', undefined, NOW)).toBe(251);
    expect(parseRetryAfter('soon', '7', NOW)).toBe(7_000);
  });

  it('gives null (the breaker floor) for missing, garbage, zero, negative and past values', () => {
    expect(parseRetryAfter(undefined, undefined, NOW)).toBeNull();
    expect(parseRetryAfter(undefined, 'garbage', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, 'in 2020', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, '0', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, '-5', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, new Date(NOW - 10_000).toUTCString(), NOW)).toBeNull();
    expect(parseRetryAfter('0', undefined, NOW)).toBeNull();
  });

  it('keeps an enormous value finite (the breaker clamps it to its maximum)', () => {
    const ms = parseRetryAfter(undefined, '9'.repeat(400), NOW);
    expect(ms).not.toBeNull();
    expect(Number.isFinite(ms)).toBe(true);
    expect(ms).toBeGreaterThan(900_000);
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(undefined, ['3', '9'], NOW)).toBe(3_000);
  });
});
