import type { AttemptOutcome } from '@routeplane/shared';
import type { Evidence } from '../breaker/types.js';
import { parseRetryAfter } from '../signals/retry-after.js';

/**
 * The fail-over table (spec "Attempts and fail-over") as data: what an
 * upstream status means for the breaker and for the request.
 *   serve      — relay it to the agent (2xx)
 *   fail_over  — try the next target (402, 429, 5xx, 401, 403)
 *   pass_back  — the request's own fault: return it to the agent unchanged (other 4xx)
 */
export type Verdict = 'serve' | 'fail_over' | 'pass_back';

export interface StatusOutcome {
  outcome: AttemptOutcome;
  evidence: Evidence;
  verdict: Verdict;
}

const NONE: Evidence = { kind: 'none' };
const CREDIT: Evidence = { kind: 'credit' };
const MODEL_FAILURE: Evidence = { kind: 'model_failure' };
const SUCCESS: Evidence = { kind: 'success' };

/** For a 2xx, `evidence` is what a body that finishes cleanly proves. */
export function classifyStatus(status: number, headers: Record<string, string | string[] | undefined>, nowMs: number): StatusOutcome {
  if (status >= 200 && status < 300) return { outcome: 'ok', evidence: SUCCESS, verdict: 'serve' };
  if (status === 402) return { outcome: 'http_402', evidence: CREDIT, verdict: 'fail_over' };
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers['retry-after-ms'], headers['retry-after'], nowMs);
    return { outcome: 'http_429', evidence: { kind: 'rate_limit', retryAfterMs }, verdict: 'fail_over' };
  }
  if (status >= 500) return { outcome: 'http_5xx', evidence: MODEL_FAILURE, verdict: 'fail_over' };
  if (status === 401 || status === 403) return { outcome: 'http_4xx', evidence: NONE, verdict: 'fail_over' };
  // other 4xx, and the odd 1xx/3xx an upstream should never send to a POST: the agent sees it as it was
  return { outcome: 'http_4xx', evidence: NONE, verdict: 'pass_back' };
}

/** Evidence of a failure that left no usable response: timeouts and network errors count against the model. */
export function transportEvidence(failure: 'timeout' | 'network' | 'aborted' | 'stream_error'): Evidence {
  return failure === 'aborted' ? NONE : MODEL_FAILURE;
}
