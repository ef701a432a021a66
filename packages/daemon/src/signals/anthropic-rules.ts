import type { AnswerFacts } from './answer-facts.js';
import { rateLimited, signalOf } from './answer-facts.js';
import type { Evidence } from './evidence.js';
import { firstValue } from './retry-after.js';
import { nextMonthStartUtc, secondsToMs } from './time-values.js';
import { codeText, messageHas } from './upstream-error.js';

/**
 * What an answer of the Anthropic family (`/v1/messages…`) is evidence of:
 * rules 2–10 of the classification, in order; the first that matches decides. Rule 1 (2xx) is the
 * caller's: a 2xx never reaches here except as an error inside a 2xx, whose
 * status is then the embedded code or 500.
 */
export function anthropicEvidence(facts: AnswerFacts): Evidence {
  const { status, error } = facts;
  // 2. out of credit, by status or by type
  if (status === 402 || error?.type === 'billing_error') return { class: 'credit', signal: signalOf(facts) };
  // 3. an empty prepaid balance is a 400 the request did not cause
  if (status === 400 && error?.type === 'invalid_request_error' && messageHas(error, 'credit balance is too low')) {
    return { class: 'credit', signal: signalOf(facts) };
  }
  if (status === 429) {
    // 4. the tier's monthly spend cap: no Retry-After, lifts at 00:00 UTC on the 1st
    if (codeText(error?.detailsErrorCode ?? null) === 'enforced_spend_limit_reached') {
      return { class: 'quota', cover: 'seat', resetAt: nextMonthStartUtc(facts.now), signal: signalOf(facts) };
    }
    // 5. a subscription window used up: held until the stated reset
    const window = rejectedWindow(facts);
    if (window !== null) return window;
    // 6. a long-context or overage refusal says nothing about the seat's other requests
    if (messageHas(error, 'extra usage')) return { class: 'request', signal: signalOf(facts) };
    // 7.
    return rateLimited(facts);
  }
  // 8. overload
  if (status === 529 || error?.type === 'overloaded_error') return { class: 'model_error', signal: signalOf(facts) };
  // 9. the seat's own key is refused (the agent's credentials are never forwarded)
  if (status === 401 || status === 403) return { class: 'key_rejected', signal: signalOf(facts) };
  // 10.
  if (status >= 500) return { class: 'model_error', signal: signalOf(facts) };
  return { class: 'none', signal: signalOf(facts) };
}

const REJECTED: ReadonlySet<string> = new Set(['rejected', 'rate_limited', 'blocked']);
const UNIFIED_STATUS = 'anthropic-ratelimit-unified-status';
const UNIFIED_RESET = 'anthropic-ratelimit-unified-reset';
const UNIFIED_CLAIM = 'anthropic-ratelimit-unified-representative-claim';

/** Rule 5: unified status rejected (or ccflare's older words) with a numeric reset (epoch seconds). */
function rejectedWindow(facts: AnswerFacts): Evidence | null {
  const status = firstValue(facts.headers[UNIFIED_STATUS]);
  if (status === undefined || !REJECTED.has(status.toLowerCase())) return null;
  const raw = firstValue(facts.headers[UNIFIED_RESET]);
  const resetAt = raw === undefined ? null : secondsToMs(raw);
  // a reset that is not a number cannot hold a quota: the 429 falls through to the rate-limit rules
  if (resetAt === null) return null;
  const cover = isPerModelClaim(firstValue(facts.headers[UNIFIED_CLAIM])) ? 'model' : 'seat';
  return { class: 'quota', cover, resetAt, signal: signalOf(facts, `${UNIFIED_RESET}: ${raw}`) };
}

/** `seven_day_<family>` or `7d_<family>` (non-empty family): a per-model weekly cap that must not sideline the seat's other models. */
export function isPerModelClaim(claim: string | undefined): boolean {
  if (claim === undefined) return false;
  const c = claim.toLowerCase();
  return (c.startsWith('seven_day_') && c.length > 'seven_day_'.length) || (c.startsWith('7d_') && c.length > '7d_'.length);
}
