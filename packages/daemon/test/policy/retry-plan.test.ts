import type { EvidenceClass, RetryConfig } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { type FailedAttempt, planRetry, type RetryQuestion } from '../../src/policy/retry-plan.js';

const RETRY: RetryConfig = { max_attempts: 3, retry_on: ['429', '5xx', 'timeout'], backoff_ms: 500, jitter: false };
const FIVE_HUNDRED: FailedAttempt = { evidence: 'model_error', status: 503, retryAfterMs: null };
const NOT_RANDOM = (): number => {
  throw new Error('jitter is off: no random draw expected');
};

function ask(over: Partial<RetryQuestion> = {}): ReturnType<typeof planRetry> {
  return planRetry({
    retry: RETRY,
    attemptsOnTarget: 1,
    failed: FIVE_HUNDRED,
    probe: false,
    tripped: false,
    waitedMs: 0,
    random: NOT_RANDOM,
    ...over,
  });
}

describe('whether to retry', () => {
  it('no retry key, or one attempt per target: never', () => {
    expect(ask({ retry: null })).toEqual({ retry: false, why: 'not_configured' });
    expect(ask({ retry: { ...RETRY, max_attempts: 1 } })).toEqual({ retry: false, why: 'not_configured' });
  });

  it('max_attempts counts the first attempt: 3 means two retries', () => {
    expect(ask({ attemptsOnTarget: 1 }).retry).toBe(true);
    expect(ask({ attemptsOnTarget: 2 }).retry).toBe(true);
    expect(ask({ attemptsOnTarget: 3 })).toEqual({ retry: false, why: 'attempts_used' });
  });

  it('never for a probe, never for a target the answer just tripped', () => {
    expect(ask({ probe: true })).toEqual({ retry: false, why: 'probe' });
    expect(ask({ tripped: true })).toEqual({ retry: false, why: 'tripped' });
  });

  it.each<[EvidenceClass, number | null, RetryConfig['retry_on'], boolean]>([
    ['rate_limit', 429, ['429'], true],
    ['rate_limit', 429, ['5xx', 'timeout'], false],
    ['model_error', 500, ['5xx'], true],
    ['model_error', 529, ['5xx'], true],
    // an error inside a 200 is a model error with a status
    ['model_error', 200, ['5xx'], true],
    ['model_error', 503, ['429', 'timeout'], false],
    // no status: a timeout, a refused or reset connection
    ['model_error', null, ['timeout'], true],
    ['model_error', null, ['429', '5xx'], false],
    // these trip their breaker or are the request's own: a retry cannot help
    ['credit', 402, ['429', '5xx', 'timeout'], false],
    ['quota', 429, ['429', '5xx', 'timeout'], false],
    ['key_rejected', 401, ['429', '5xx', 'timeout'], false],
    ['request', 429, ['429', '5xx', 'timeout'], false],
    ['none', 400, ['429', '5xx', 'timeout'], false],
  ])('%s with status %j and retry_on %j: retry %s', (evidence, status, retryOn, retried) => {
    const decision = ask({ retry: { ...RETRY, retry_on: retryOn }, failed: { evidence, status, retryAfterMs: null } });
    expect(decision.retry).toBe(retried);
    if (!decision.retry) expect(decision.why).toBe('not_retry_on');
  });
});

describe('how long to wait', () => {
  it('backoff_ms · 2^(n−1), at most 10 s', () => {
    expect(ask({ attemptsOnTarget: 1 })).toEqual({ retry: true, waitMs: 500 });
    expect(ask({ attemptsOnTarget: 2 })).toEqual({ retry: true, waitMs: 1000 });
    const long = { ...RETRY, max_attempts: 5, backoff_ms: 3000 };
    expect(ask({ retry: long, attemptsOnTarget: 1 })).toEqual({ retry: true, waitMs: 3000 });
    expect(ask({ retry: long, attemptsOnTarget: 2 })).toEqual({ retry: true, waitMs: 6000 });
    expect(ask({ retry: long, attemptsOnTarget: 3 })).toEqual({ retry: true, waitMs: 10_000 });
    expect(ask({ retry: long, attemptsOnTarget: 4 })).toEqual({ retry: true, waitMs: 10_000 });
  });

  it('jitter spreads the backoff over [0.5, 1] of itself', () => {
    const jittered = { ...RETRY, jitter: true };
    expect(ask({ retry: jittered, random: () => 0 })).toEqual({ retry: true, waitMs: 250 });
    expect(ask({ retry: jittered, random: () => 0.5 })).toEqual({ retry: true, waitMs: 375 });
    expect(ask({ retry: jittered, attemptsOnTarget: 2, random: () => 0.999_999 })).toEqual({ retry: true, waitMs: 1000 });
  });

  it('a Retry-After extends the wait and is never cut, by backoff or by jitter', () => {
    const limited = (retryAfterMs: number | null): FailedAttempt => ({ evidence: 'rate_limit', status: 429, retryAfterMs });
    expect(ask({ failed: limited(2000) })).toEqual({ retry: true, waitMs: 2000 });
    expect(ask({ failed: limited(200) })).toEqual({ retry: true, waitMs: 500 });
    const jittered = { ...RETRY, jitter: true };
    expect(ask({ retry: jittered, failed: limited(400), random: () => 0 })).toEqual({ retry: true, waitMs: 400 });
    expect(ask({ retry: jittered, failed: limited(400), random: () => 0.9 })).toEqual({ retry: true, waitMs: 475 });
  });

  it('a Retry-After up to 10 s is waited for; above it the request moves on', () => {
    const limited = (retryAfterMs: number): FailedAttempt => ({ evidence: 'rate_limit', status: 429, retryAfterMs });
    expect(ask({ failed: limited(10_000) })).toEqual({ retry: true, waitMs: 10_000 });
    expect(ask({ failed: limited(10_001) })).toEqual({ retry: false, why: 'retry_after_too_long' });
  });

  it('a request waits at most 30 s in retries: a wait that would cross it is not made', () => {
    expect(ask({ waitedMs: 29_500 })).toEqual({ retry: true, waitMs: 500 });
    expect(ask({ waitedMs: 29_501 })).toEqual({ retry: false, why: 'budget' });
    expect(ask({ waitedMs: 25_000, failed: { evidence: 'rate_limit', status: 429, retryAfterMs: 6000 } })).toEqual({
      retry: false,
      why: 'budget',
    });
  });

  it('waits are whole milliseconds, never below the computed value', () => {
    const jittered = { ...RETRY, backoff_ms: 51, jitter: true };
    const decision = ask({ retry: jittered, random: () => 0.3 });
    // 51 · (0.5 + 0.15) = 33.15
    expect(decision).toEqual({ retry: true, waitMs: 34 });
  });
});
