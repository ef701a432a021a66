import type { Family, Signal } from '@routeplane/shared';
import { rateLimitWait } from './deadlines.js';
import type { Evidence } from './evidence.js';
import type { UpstreamHeaders } from './retry-after.js';
import { buildSignal } from './signal.js';
import type { UpstreamError } from './upstream-error.js';

/**
 * What the family rules read from one failed answer: the status (for an
 * error inside a 2xx, the embedded code), the headers, the parsed `error`
 * (null when the body held none or was not read) and what the signal needs.
 */
export interface AnswerFacts {
  family: Family;
  status: number;
  headers: UpstreamHeaders;
  error: UpstreamError | null;
  now: number;
  secrets: readonly string[];
  /** influence.max_cooldown_secs in ms: Gemini's RetryInfo delay up to it is a rate limit, beyond it a quota */
  maxCooldownMs: number;
}

export function signalOf(facts: AnswerFacts, header: string | null = null): Signal {
  return buildSignal(facts.status, facts.error, header, facts.secrets);
}

/** A plain 429: a deadline from Retry-After or the reset headers, null when none was usable. */
export function rateLimited(facts: AnswerFacts): Evidence {
  const wait = rateLimitWait(facts.family, facts.headers, facts.now);
  return { class: 'rate_limit', waitMs: wait?.ms ?? null, signal: signalOf(facts, wait?.header ?? null) };
}
