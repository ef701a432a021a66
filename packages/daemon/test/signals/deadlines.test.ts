import { describe, expect, it } from 'vitest';
import { rateLimitWait } from '../../src/signals/deadlines.js';
import { anthropicLimits, NOW, openaiLimits } from './fixtures.js';

/** A `rate_limit` deadline: Retry-After first, then the reset headers. */

const at = (ms: number) => new Date(NOW + ms).toISOString();

describe('rate-limit wait', () => {
  it('retry-after-ms wins, then retry-after, each named', () => {
    expect(rateLimitWait('openai', { 'retry-after-ms': '250', 'retry-after': '9' }, NOW)).toEqual({
      ms: 250,
      header: 'retry-after-ms: 250',
    });
    expect(rateLimitWait('anthropic', { 'retry-after': '9' }, NOW)).toEqual({ ms: 9_000, header: 'retry-after: 9' });
    expect(rateLimitWait('anthropic', { 'retry-after': new Date(NOW + 45_000).toUTCString() }, NOW)).toMatchObject({ ms: 45_000 });
  });

  it('Retry-After wins over the reset headers', () => {
    const headers = {
      ...openaiLimits({ requestsRemaining: '0', requestsReset: '6m0s', tokensRemaining: '0', tokensReset: '1s' }),
      'retry-after': '2',
    };
    expect(rateLimitWait('openai', headers, NOW)).toEqual({ ms: 2_000, header: 'retry-after: 2' });
  });

  it('an unusable Retry-After falls through to the reset headers', () => {
    const headers = {
      ...openaiLimits({ requestsRemaining: '0', requestsReset: '20s', tokensRemaining: '5', tokensReset: '1s' }),
      'retry-after': 'soon',
    };
    expect(rateLimitWait('openai', headers, NOW)).toEqual({ ms: 20_000, header: 'x-ratelimit-reset-requests: 20s' });
  });

  it('the latest reset among the limits at 0', () => {
    const headers = anthropicLimits({ requestsRemaining: '0', requestsReset: at(10_000), tokensRemaining: '0', tokensReset: at(30_000) });
    expect(rateLimitWait('anthropic', headers, NOW)).toEqual({ ms: 30_000, header: `anthropic-ratelimit-tokens-reset: ${at(30_000)}` });
  });

  it('a limit at 0 wins over an earlier reset of a limit with room', () => {
    const headers = anthropicLimits({ requestsRemaining: '3', requestsReset: at(2_000), tokensRemaining: '0', tokensReset: at(30_000) });
    expect(rateLimitWait('anthropic', headers, NOW)).toMatchObject({ ms: 30_000 });
  });

  it('when no limit is at 0, the earliest reset given', () => {
    const headers = openaiLimits({ requestsRemaining: '3', requestsReset: '6m0s', tokensRemaining: '100', tokensReset: '12ms' });
    expect(rateLimitWait('openai', headers, NOW)).toEqual({ ms: 12, header: 'x-ratelimit-reset-tokens: 12ms' });
  });

  it('reads the input- and output-tokens limits of the Anthropic API', () => {
    const headers = {
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': at(8_000),
      'anthropic-ratelimit-output-tokens-remaining': '0',
      'anthropic-ratelimit-output-tokens-reset': at(16_000),
    };
    expect(rateLimitWait('anthropic', headers, NOW)).toMatchObject({
      ms: 16_000,
      header: `anthropic-ratelimit-output-tokens-reset: ${at(16_000)}`,
    });
  });

  it('a chosen reset already past, or nothing usable, leaves the floor to the engine', () => {
    expect(
      rateLimitWait(
        'anthropic',
        anthropicLimits({ requestsRemaining: '0', requestsReset: at(-5_000), tokensRemaining: '1', tokensReset: at(9_000) }),
        NOW,
      ),
    ).toBeNull();
    expect(
      rateLimitWait('openai', openaiLimits({ requestsRemaining: '1', requestsReset: '0s', tokensRemaining: '1', tokensReset: '9s' }), NOW),
    ).toBeNull();
    expect(rateLimitWait('openai', {}, NOW)).toBeNull();
    expect(rateLimitWait('openai', { 'x-ratelimit-reset-requests': 'whenever' }, NOW)).toBeNull();
  });

  it('"-remaining: 0" means zero, in any spelling; "-1" (Azure) does not', () => {
    for (const zero of ['0', ' 0 ', '00', '0.0']) {
      const headers = openaiLimits({ requestsRemaining: zero, requestsReset: '20s', tokensRemaining: '5', tokensReset: '1s' });
      expect(rateLimitWait('openai', headers, NOW)).toMatchObject({ ms: 20_000 });
    }
    const azure = openaiLimits({ requestsRemaining: '-1', requestsReset: '20s', tokensRemaining: '5', tokensReset: '1s' });
    expect(rateLimitWait('openai', azure, NOW)).toMatchObject({ ms: 1_000 });
  });
});
