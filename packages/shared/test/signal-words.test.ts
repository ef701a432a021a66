import { describe, expect, it } from 'vitest';
import type { Signal } from '../src/breaker/breaker.js';
import { clockTime, signalHeaderName, signalWords, untilWords } from '../src/signal-words.js';

const signal = (fields: Partial<Signal>): Signal => ({ status: null, type: null, code: null, header: null, message: null, ...fields });

describe('a signal in words', () => {
  it.each([
    [
      'OpenAI insufficient_quota',
      signal({ status: 429, type: 'insufficient_quota', code: 'insufficient_quota' }),
      '429 insufficient_quota',
    ],
    [
      'Anthropic empty balance',
      signal({
        status: 400,
        type: 'invalid_request_error',
        message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
      }),
      '400 credit balance is too low',
    ],
    [
      'a specific type says more than a telling phrase',
      signal({ status: 402, type: 'billing_error', message: 'Your credit balance is too low to access the Anthropic API.' }),
      '402 billing_error',
    ],
    [
      'a generic type and no telling phrase: the type',
      signal({ status: 500, type: 'api_error', message: 'Internal server error' }),
      '500 api_error',
    ],
    [
      'a generic code beside a telling phrase: the phrase',
      signal({ status: 400, type: 'error', code: 'invalid_request_error', message: 'Your credit balance is too low.' }),
      '400 credit balance is too low',
    ],
    ['Anthropic overload', signal({ status: 529, type: 'overloaded_error', message: 'Overloaded' }), '529 overloaded_error'],
    [
      'a code says more than the type',
      signal({ status: 429, type: 'insufficient_quota', code: 'project_spend_limit_exceeded' }),
      '429 project_spend_limit_exceeded',
    ],
    [
      'Anthropic spend cap',
      signal({ status: 429, type: 'rate_limit_error', code: 'enforced_spend_limit_reached' }),
      '429 enforced_spend_limit_reached',
    ],
    [
      'a numeric code repeats the status: the type says more',
      signal({ status: 429, type: 'RESOURCE_EXHAUSTED', code: '429' }),
      '429 RESOURCE_EXHAUSTED',
    ],
    [
      'extra usage',
      signal({ status: 429, type: 'rate_limit_error', message: 'Extra usage is required for long context requests.' }),
      '429 extra usage required',
    ],
    [
      'only a message, cut short',
      signal({
        status: 402,
        code: '402',
        message: 'Your account or API key has insufficient credits. Add more credits and retry the request.',
      }),
      '402 insufficient credits',
    ],
    [
      'only a long message',
      signal({ status: 502, message: 'The upstream provider did something nobody expected at all, really' }),
      '502 The upstream provider did something nobody expe…',
    ],
    ['a bare status', signal({ status: 503 }), '503'],
    ['nothing at all', signal({}), 'no details'],
  ])('%s', (_what, s, words) => {
    expect(signalWords(s)).toBe(words);
  });
});

describe('a deadline in words', () => {
  const NOW = Date.UTC(2025, 11, 1, 11, 0, 0);
  const utc = (at: number) => clockTime(at, NOW, 0);

  it('names the header the deadline came from', () => {
    const s = signal({ status: 429, type: 'rate_limit_error', header: 'anthropic-ratelimit-unified-reset: 1764597600' });
    expect(untilWords('quota', 1_764_597_600_000, s, utc)).toBe('quota until 14:00 (anthropic-ratelimit-unified-reset)');
  });

  it('names no header when the body set it', () => {
    expect(untilWords('quota', Date.UTC(2026, 0, 1), signal({ status: 429, code: 'enforced_spend_limit_reached' }), utc)).toBe(
      'quota until Jan 1 00:00',
    );
    expect(untilWords('rate limit', NOW + 30_000, null, utc)).toBe('rate limit until 11:00');
  });

  it('the header name alone', () => {
    expect(signalHeaderName(signal({ header: 'retry-after: 5' }))).toBe('retry-after');
    expect(signalHeaderName(signal({}))).toBeNull();
    expect(signalHeaderName(null)).toBeNull();
  });

  it("a time of day within a day, a date beyond; in the zone given, not the machine's", () => {
    expect(clockTime(NOW + 3 * 3_600_000, NOW, 0)).toBe('14:00');
    expect(clockTime(NOW + 3 * 3_600_000, NOW, 120)).toBe('16:00');
    expect(clockTime(NOW + 3 * 3_600_000, NOW, -330)).toBe('08:30');
    expect(clockTime(NOW + 6 * 86_400_000, NOW, 0)).toBe('Dec 7 11:00');
    expect(clockTime(NOW + 13 * 3_600_000 + 59 * 60_000, NOW, 0)).toBe('00:59');
  });

  it('a deadline no clock can show', () => {
    expect(clockTime(Number.MAX_SAFE_INTEGER, NOW, 0)).toBe('never');
    expect(clockTime(Number.NaN, NOW, 0)).toBe('never');
  });
});
