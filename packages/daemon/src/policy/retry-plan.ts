import type { EvidenceClass, RetryConfig } from '@routeplane/shared';

/**
 * Whether a failed attempt is retried on the same target, and after how long.
 * Pure: the forwarder asks after
 * every failed attempt that reached no byte of the agent, and waits
 * `waitMs` before the retry or moves on to the next target.
 */

/** The longest backoff step, and the longest Retry-After a retry waits for. */
export const MAX_RETRY_WAIT_MS = 10_000;
/** The most a request waits in retries, all targets together. */
export const RETRY_BUDGET_MS = 30_000;

export interface FailedAttempt {
  /** the failed answer's evidence class (never `ok`) */
  readonly evidence: EvidenceClass;
  /** the upstream status, null when none arrived (timeout, refused or reset connection) */
  readonly status: number | null;
  /** the answer's Retry-After (retry-after-ms or Retry-After as parseRetryAfter reads them), null when none */
  readonly retryAfterMs: number | null;
}

export interface RetryQuestion {
  /** the route's `retry`; null: one attempt per target */
  readonly retry: RetryConfig | null;
  /** attempts already made on this target, the failed one included (1 after a first attempt) */
  readonly attemptsOnTarget: number;
  readonly failed: FailedAttempt;
  /** the failed attempt was a probe */
  readonly probe: boolean;
  /** the failed answer just tripped a credit, quota, key or model-errors breaker covering this target */
  readonly tripped: boolean;
  /** what the request has already waited in retries, in ms */
  readonly waitedMs: number;
  /** uniform in [0, 1): the jitter's source */
  readonly random: () => number;
}

export type NoRetry = 'not_configured' | 'attempts_used' | 'probe' | 'tripped' | 'not_retry_on' | 'retry_after_too_long' | 'budget';

export type RetryDecision = { retry: false; why: NoRetry } | { retry: true; waitMs: number };

/** `retry_on`'s word for a failure, or null when no retry can help it. */
export function retryClass(failed: FailedAttempt): '429' | '5xx' | 'timeout' | null {
  switch (failed.evidence) {
    case 'rate_limit':
      return '429';
    case 'model_error':
      return failed.status === null ? 'timeout' : '5xx';
    default:
      // credit, quota and key refusals trip their breaker; `request` and `none` are this request's own
      return null;
  }
}

export function planRetry(q: RetryQuestion): RetryDecision {
  const { retry, failed } = q;
  if (retry === null || retry.max_attempts <= 1) return { retry: false, why: 'not_configured' };
  if (q.attemptsOnTarget >= retry.max_attempts) return { retry: false, why: 'attempts_used' };
  if (q.probe) return { retry: false, why: 'probe' };
  if (q.tripped) return { retry: false, why: 'tripped' };
  const word = retryClass(failed);
  if (word === null || !retry.retry_on.includes(word)) return { retry: false, why: 'not_retry_on' };
  const retryAfter = failed.retryAfterMs ?? 0;
  if (retryAfter > MAX_RETRY_WAIT_MS) return { retry: false, why: 'retry_after_too_long' };
  // retry n waits backoff·2^(n−1): n is the number of attempts made so far
  const backoff = Math.min(retry.backoff_ms * 2 ** (q.attemptsOnTarget - 1), MAX_RETRY_WAIT_MS);
  const spread = retry.jitter ? backoff * (0.5 + 0.5 * q.random()) : backoff;
  // jitter spreads the backoff only: a provider's Retry-After is never cut
  const waitMs = Math.ceil(Math.max(spread, retryAfter));
  if (q.waitedMs + waitMs > RETRY_BUDGET_MS) return { retry: false, why: 'budget' };
  return { retry: true, waitMs };
}
