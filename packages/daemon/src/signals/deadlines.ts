import type { Family } from '@routeplane/shared';
import { firstValue, statedRetryAfter, type StatedWait, type UpstreamHeaders } from './retry-after.js';
import { parseDuration, parseRfc3339 } from './time-values.js';

/**
 * How long a rate-limited seat should be left alone: a usable `retry-after-ms` / `retry-after`
 * first; else the family's reset headers — the latest reset among the limits
 * whose `-remaining` is `0` (the request needs all of them back), or, when
 * none is 0, the earliest reset given (we cannot tell which limit refused,
 * and the shortest hold costs least if we guessed wrong).
 *
 * A Retry-After that is present but unusable (garbage, zero, past) falls
 * through to the reset headers: "an answer with neither" means "neither says
 * anything usable", so a broken header does not hide a good one.
 *
 * Returns null when nothing usable was said: the engine applies its 1 s floor.
 * Values are unclamped; the engine clamps to [1 s, max_cooldown_secs].
 */
export function rateLimitWait(family: Family, headers: UpstreamHeaders, now: number): StatedWait | null {
  return statedRetryAfter(headers, now) ?? resetWait(family === 'anthropic' ? ANTHROPIC_LIMITS : OPENAI_LIMITS, headers, now);
}

interface LimitHeaders {
  reset: string;
  remaining: string;
  /** the reset value → ms from now (0 when already past), or null when unreadable */
  waitFrom(value: string, now: number): number | null;
}

function untilTime(value: string, now: number): number | null {
  const at = parseRfc3339(value);
  return at === null ? null : Math.max(0, at - now);
}

function afterDuration(value: string): number | null {
  return parseDuration(value);
}

const ANTHROPIC_LIMITS: readonly LimitHeaders[] = ['requests', 'tokens', 'input-tokens', 'output-tokens'].map((limit) => ({
  reset: `anthropic-ratelimit-${limit}-reset`,
  remaining: `anthropic-ratelimit-${limit}-remaining`,
  waitFrom: untilTime,
}));

const OPENAI_LIMITS: readonly LimitHeaders[] = ['requests', 'tokens'].map((limit) => ({
  reset: `x-ratelimit-reset-${limit}`,
  remaining: `x-ratelimit-remaining-${limit}`,
  waitFrom: afterDuration,
}));

function resetWait(limits: readonly LimitHeaders[], headers: UpstreamHeaders, now: number): StatedWait | null {
  let latestExhausted: StatedWait | null = null;
  let earliest: StatedWait | null = null;
  for (const limit of limits) {
    const value = firstValue(headers[limit.reset]);
    if (value === undefined) continue;
    const ms = limit.waitFrom(value, now);
    if (ms === null) continue;
    const candidate = { ms, header: `${limit.reset}: ${value}` };
    if (isZero(firstValue(headers[limit.remaining])) && (latestExhausted === null || ms > latestExhausted.ms)) latestExhausted = candidate;
    if (earliest === null || ms < earliest.ms) earliest = candidate;
  }
  const chosen = latestExhausted ?? earliest;
  // a reset already past says "now": nothing to wait for beyond the engine's floor
  return chosen !== null && chosen.ms > 0 ? chosen : null;
}

function isZero(value: string | undefined): boolean {
  return value !== undefined && /^0+(?:\.0+)?$/.test(value);
}
