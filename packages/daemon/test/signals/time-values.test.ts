import { describe, expect, it } from 'vitest';
import { finiteMs, nextMonthStartUtc, parseDuration, parseRfc3339, secondsToMs } from '../../src/signals/time-values.js';

describe('Go and protobuf durations', () => {
  it.each([
    ['1s', 1_000],
    ['6m0s', 360_000],
    ['12ms', 12],
    ['1h2m3.5s', 3_723_500],
    ['30s', 30_000],
    ['515092.73s', 515_092_730],
    ['143h4m52.73s', 515_092_730],
    ['1.5ms', 2],
    ['500us', 1],
    ['500µs', 1],
    ['0', 0],
    ['0s', 0],
    [' 2s ', 2_000],
    ['.5s', 500],
  ])('%s → %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 's', '-1s', '+1s', '1', '1x', '1s garbage', '1e3s', 'NaNs', 'Infinitys', '1 s', '0x10s'])('%j → null', (text) => {
    expect(parseDuration(text)).toBeNull();
  });

  it('keeps absurd lengths finite', () => {
    expect(parseDuration(`${'9'.repeat(400)}h`)).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseDuration('99999999999999999999h')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('RFC 3339 times', () => {
  it.each([
    ['2025-08-21T12:40:59Z', Date.UTC(2025, 7, 21, 12, 40, 59)],
    ['2025-08-21T12:40:59.250Z', Date.UTC(2025, 7, 21, 12, 40, 59, 250)],
    ['2025-08-21T14:40:59+02:00', Date.UTC(2025, 7, 21, 12, 40, 59)],
    ['9999-12-31T23:59:59Z', 253_402_300_799_000],
  ])('%s', (text, at) => {
    expect(parseRfc3339(text)).toBe(at);
  });

  it.each([
    '2025-08-21',
    'Thu, 21 Aug 2025 12:40:59 GMT',
    '2025-13-01T00:00:00Z',
    '2025-08-21T12:40:59',
    '1755780059',
    '+275760-09-13T00:00:00Z',
  ])('%j → null', (text) => {
    expect(parseRfc3339(text)).toBeNull();
  });
});

describe('seconds from a header or a JSON number', () => {
  it.each([
    ['1764590000', 1_764_590_000_000],
    [1764590000, 1_764_590_000_000],
    ['1.5', 1_500],
    [0, 0],
    ['99999999999999999999', Number.MAX_SAFE_INTEGER],
  ] as Array<[unknown, number]>)('%j → %d ms', (value, ms) => {
    expect(secondsToMs(value)).toBe(ms);
  });

  it.each([['-5'], [-5], ['1e9'], ['NaN'], [Number.NaN], [Number.POSITIVE_INFINITY], ['0x10'], [''], [null], [undefined], [{}], [true]])(
    '%j → null',
    (value) => {
      expect(secondsToMs(value)).toBeNull();
    },
  );
});

describe('helpers', () => {
  it('finiteMs refuses NaN and negatives and caps the rest', () => {
    expect(finiteMs(Number.NaN)).toBeNull();
    expect(finiteMs(-1)).toBeNull();
    expect(finiteMs(Number.POSITIVE_INFINITY)).toBe(Number.MAX_SAFE_INTEGER);
    expect(finiteMs(0.2)).toBe(1);
  });

  it('the 1st of next month, December rolling into January', () => {
    expect(nextMonthStartUtc(Date.UTC(2025, 11, 31, 23, 59, 59))).toBe(Date.UTC(2026, 0, 1));
    expect(nextMonthStartUtc(Date.UTC(2026, 0, 1, 0, 0, 0))).toBe(Date.UTC(2026, 1, 1));
    expect(nextMonthStartUtc(Date.UTC(2024, 1, 29, 12))).toBe(Date.UTC(2024, 2, 1));
  });
});
