/**
 * How long a 429 asks us to wait.
 * Pure: `retry-after-ms` wins when it is a number; else `Retry-After` as
 * delta-seconds (decimals accepted) or an HTTP-date. Returns a positive,
 * finite number of milliseconds, or null when nothing usable was given
 * (missing, garbage, zero, negative, in the past) — the breaker then applies
 * its 1 s floor, and clamps everything to [1 s, max_cooldown_secs].
 */
export type HeaderValue = string | string[] | undefined;

/** Upstream response headers as undici gives them: lower-case names. */
export type UpstreamHeaders = Readonly<Record<string, HeaderValue>>;

/** A wait and the header that stated it (`name: value`), for the signal. */
export interface StatedWait {
  ms: number;
  header: string;
}

const DECIMAL = /^\d+(?:\.\d+)?$/;
/** an HTTP-date always carries a time of day; without one `Date.parse` guesses too freely */
const TIME_OF_DAY = /\b\d{1,2}:\d{2}:\d{2}\b/;

export function parseRetryAfter(retryAfterMs: HeaderValue, retryAfter: HeaderValue, nowMs: number): number | null {
  const ms = firstValue(retryAfterMs);
  if (ms !== undefined && DECIMAL.test(ms)) return usable(Number(ms));
  const value = firstValue(retryAfter);
  if (value === undefined) return null;
  if (DECIMAL.test(value)) return usable(Number(value) * 1000);
  if (!TIME_OF_DAY.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : usable(at - nowMs);
}

/**
 * The same reading as `parseRetryAfter`, naming the header that decided it,
 * so the signal can say where a deadline came from. Null when neither header
 * gave a usable wait.
 */
export function statedRetryAfter(headers: UpstreamHeaders, nowMs: number): StatedWait | null {
  const ms = firstValue(headers['retry-after-ms']);
  if (ms !== undefined && DECIMAL.test(ms)) {
    const wait = usable(Number(ms));
    return wait === null ? null : { ms: wait, header: `retry-after-ms: ${ms}` };
  }
  const value = firstValue(headers['retry-after']);
  if (value === undefined) return null;
  const wait = parseRetryAfter(undefined, value, nowMs);
  return wait === null ? null : { ms: wait, header: `retry-after: ${value}` };
}

/** The first of repeated headers, trimmed. */
export function firstValue(value: HeaderValue): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined ? undefined : v.trim();
}

function usable(ms: number): number | null {
  if (!(ms > 0)) return null;
  // `1e400` seconds is Infinity: still "very long", which the breaker clamps to its maximum.
  return Math.min(Math.ceil(ms), Number.MAX_SAFE_INTEGER);
}
