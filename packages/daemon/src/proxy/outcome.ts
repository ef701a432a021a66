import type { AttemptOutcome, Signal } from '@routeplane/shared';
import { ABORTED, type Evidence, OK } from '../signals/evidence.js';
import { parseRetryAfter } from './retry-after.js';

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

const SUCCESS: StatusOutcome = { outcome: 'ok', evidence: OK, verdict: 'serve' };

function statusSignal(status: number): Signal {
  return { status, type: null, code: null, header: null, message: null };
}

/** For a 2xx, `evidence` is what a body that finishes cleanly proves. */
export function classifyStatus(status: number, headers: Record<string, string | string[] | undefined>, nowMs: number): StatusOutcome {
  if (status >= 200 && status < 300) return SUCCESS;
  const signal = statusSignal(status);
  if (status === 402) return { outcome: 'http_402', evidence: { class: 'credit', signal }, verdict: 'fail_over' };
  if (status === 429) {
    const waitMs = parseRetryAfter(headers['retry-after-ms'], headers['retry-after'], nowMs);
    return { outcome: 'http_429', evidence: { class: 'rate_limit', waitMs, signal }, verdict: 'fail_over' };
  }
  if (status >= 500) return { outcome: 'http_5xx', evidence: { class: 'model_error', signal }, verdict: 'fail_over' };
  if (status === 401 || status === 403) return { outcome: 'http_4xx', evidence: { class: 'request', signal }, verdict: 'fail_over' };
  // other 4xx, and the odd 1xx/3xx an upstream should never send to a POST: the agent sees it as it was
  return { outcome: 'http_4xx', evidence: { class: 'none', signal }, verdict: 'pass_back' };
}

const MODEL_FAILURE: Evidence = { class: 'model_error', signal: null };

/** Evidence of a failure that left no usable response: timeouts and network errors count against the model. */
export function transportEvidence(failure: 'timeout' | 'network' | 'aborted' | 'stream_error'): Evidence {
  return failure === 'aborted' ? ABORTED : MODEL_FAILURE;
}
