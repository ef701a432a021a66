import type { AttemptOutcome, Family } from '@routeplane/shared';
import { anthropicEvidence } from './anthropic-rules.js';
import { type AnswerFacts, signalOf } from './answer-facts.js';
import { decodedBody } from './decode-body.js';
import { OK, type Evidence } from './evidence.js';
import { openaiEvidence } from './openai-rules.js';
import type { UpstreamHeaders } from './retry-after.js';
import { MAX_ERROR_BODY_BYTES, readUpstreamError, type UpstreamError } from './upstream-error.js';

/**
 * What one upstream answer is evidence of,
 * and what the forwarder does with it:
 *   serve      — relay it to the agent (2xx)
 *   fail_over  — try the next target
 *   pass_back  — the request's own fault (`none`): return it to the agent unchanged
 */
export type Verdict = 'serve' | 'fail_over' | 'pass_back';

export interface Classified {
  evidence: Evidence;
  /** v1's word for the attempt, from the status (the embedded code for an error inside a 2xx) */
  outcome: AttemptOutcome;
  verdict: Verdict;
}

export interface UpstreamAnswer {
  family: Family;
  status: number;
  /** as undici gives them: lower-case names */
  headers: UpstreamHeaders;
  /** the whole body as received (compressed or not); null when not read or larger than 65,536 bytes */
  body: Buffer | null;
  /** epoch ms, from the injected clock */
  now: number;
  /** every seat key and agent token: redacted from the signal */
  secrets: readonly string[];
  /**
   * the seat is the agent's own login (`auth: passthrough`): its 401 or 403
   * is about that login (expired, logged out), not the seat — evidence
   * `none`, passed back, so the agent refreshes it and no breaker trips
   */
  login?: boolean;
}

export interface ClassifyLimits {
  /** influence.max_cooldown_secs × 1000 */
  maxCooldownMs: number;
}

const SERVED: Classified = Object.freeze({ evidence: OK, outcome: 'ok', verdict: 'serve' });

/**
 * Classifies an answer by its status, headers and (for an error status) its
 * body. A 2xx returns at once without reading anything else: whether its
 * body is an error is `classifyEmbedded`'s question, asked on its first chunk.
 */
export function classifyAnswer(answer: UpstreamAnswer, limits: ClassifyLimits): Classified {
  if (answer.status >= 200 && answer.status < 300) return SERVED;
  return classifyFailure(answer, answer.status, readBody(answer), limits);
}

function readBody(answer: UpstreamAnswer): UpstreamError | null {
  if (answer.body === null || answer.body.length > MAX_ERROR_BODY_BYTES) return null;
  const body = decodedBody(answer.body, answer.headers['content-encoding']);
  return body === null ? null : readUpstreamError(body);
}

/** The family rules for a failed answer whose status (real or embedded) is `status`. */
export function classifyFailure(
  answer: Omit<UpstreamAnswer, 'body' | 'status'>,
  status: number,
  error: UpstreamError | null,
  limits: ClassifyLimits,
): Classified {
  const facts: AnswerFacts = {
    family: answer.family,
    status,
    headers: answer.headers,
    error,
    now: answer.now,
    secrets: answer.secrets,
    maxCooldownMs: limits.maxCooldownMs,
  };
  const evidence =
    answer.login === true && (status === 401 || status === 403)
      ? ({ class: 'none', signal: signalOf(facts) } as const)
      : answer.family === 'anthropic'
        ? anthropicEvidence(facts)
        : openaiEvidence(facts);
  return { evidence, outcome: outcomeOf(status), verdict: verdictOf(evidence) };
}

/** v1's outcome words: 1xx and 3xx, which a POST should never get, read as 4xx as before. */
export function outcomeOf(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 402) return 'http_402';
  if (status === 429) return 'http_429';
  if (status >= 500) return 'http_5xx';
  return 'http_4xx';
}

function verdictOf(evidence: Evidence): Verdict {
  switch (evidence.class) {
    case 'ok':
      return 'serve';
    case 'none':
    case 'aborted':
      return 'pass_back';
    default:
      return 'fail_over';
  }
}
