import type { AnswerFacts } from './answer-facts.js';
import { rateLimited, signalOf } from './answer-facts.js';
import type { Evidence } from './evidence.js';
import { finiteMs, parseDuration, secondsToMs } from './time-values.js';
import { codeText, isObject, own, type UpstreamError } from './upstream-error.js';

/**
 * What an answer of the OpenAI family (every other `POST /v1/*`: OpenAI,
 * Codex, OpenRouter, Gemini's compatible API…) is evidence of: rules 2–8 of
 * the classification, in order.
 * Rule 1 (2xx) is the caller's, as for the Anthropic family.
 */
export function openaiEvidence(facts: AnswerFacts): Evidence {
  const { status, error } = facts;
  // 2.
  if (status === 402) return { class: 'credit', signal: signalOf(facts) };
  // 3. OpenAI answers an exhausted account with a 429 (or another 4xx), never a 402
  if (status >= 400 && status < 500 && isOutOfCredit(error)) return { class: 'credit', signal: signalOf(facts) };
  if (status === 429) {
    // 4. a ChatGPT subscription's (Codex) usage window
    const window = usageLimitReached(facts);
    if (window !== null) return window;
    // 5. Google's RESOURCE_EXHAUSTED with RetryInfo
    const exhausted = resourceExhausted(facts);
    if (exhausted !== null) return exhausted;
    // 6.
    return rateLimited(facts);
  }
  // 7. the seat's own key is refused
  if (status === 401 || status === 403) return { class: 'key_rejected', signal: signalOf(facts) };
  // 8.
  if (status >= 500) return { class: 'model_error', signal: signalOf(facts) };
  return { class: 'none', signal: signalOf(facts) };
}

const OUT_OF_CREDIT_CODES: ReadonlySet<string> = new Set([
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'organization_usage_limit_exceeded',
]);

function isOutOfCredit(error: UpstreamError | null): boolean {
  if (error === null) return false;
  const code = codeText(error.code);
  return error.type === 'insufficient_quota' || code === 'insufficient_quota' || (code !== null && OUT_OF_CREDIT_CODES.has(code));
}

/** Rule 4: `usage_limit_reached` with `resets_at` (epoch s, wins) or `resets_in_seconds`. */
function usageLimitReached(facts: AnswerFacts): Evidence | null {
  const error = facts.error;
  if (error?.type !== 'usage_limit_reached') return null;
  const at = secondsToMs(error.resetsAt);
  const resetAt = at ?? after(facts.now, secondsToMs(error.resetsInSeconds));
  // neither is a number: nothing to hold the quota until, so the 429 is read as a rate limit (rule 6)
  if (resetAt === null) return null;
  return { class: 'quota', cover: 'seat', resetAt, signal: signalOf(facts) };
}

/**
 * Rule 5: up to max_cooldown the delay is a rate limit with that deadline;
 * longer, it is a daily or per-project quota held until now + delay.
 */
function resourceExhausted(facts: AnswerFacts): Evidence | null {
  if (facts.error?.status !== 'RESOURCE_EXHAUSTED') return null;
  const delay = retryDelayMs(facts.error.retryDelay);
  if (delay === null) return null;
  if (delay <= facts.maxCooldownMs) return { class: 'rate_limit', waitMs: delay > 0 ? delay : null, signal: signalOf(facts) };
  return { class: 'quota', cover: 'seat', resetAt: after(facts.now, delay) ?? facts.now, signal: signalOf(facts) };
}

/** A protobuf Duration in its JSON form (`"30s"`, `"143h4m52.73s"`) or as `{seconds, nanos}`. */
function retryDelayMs(delay: unknown): number | null {
  if (typeof delay === 'string') return parseDuration(delay);
  if (!isObject(delay)) return null;
  const seconds = secondsToMs(own(delay, 'seconds') ?? 0);
  const nanos = own(delay, 'nanos');
  if (seconds === null) return null;
  return typeof nanos === 'number' && nanos > 0 ? finiteMs(seconds + nanos / 1e6) : seconds;
}

function after(now: number, ms: number | null): number | null {
  return ms === null ? null : finiteMs(now + ms);
}
