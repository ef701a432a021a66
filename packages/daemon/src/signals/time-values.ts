/**
 * The ways providers write a time, read
 * into epoch or duration milliseconds. Every value here comes from an
 * upstream and may be hostile: a reader never throws and never returns NaN or
 * Infinity — it returns null (nothing usable) or a finite integer. A value
 * absurdly far away is kept as "very far" (capped at MAX_SAFE_INTEGER) rather
 * than dropped, because the breaker engine clamps every deadline to its own
 * maximum; turning it into null would instead read as "no deadline at all".
 */

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3, // U+00B5, what Go prints
  μs: 1e-3, // U+03BC, what Go also accepts
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** one `<number><unit>` element of a Go or protobuf duration; sticky, so elements must follow each other exactly */
const DURATION_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
/** unsigned decimal, no exponent: `Number()` would also take `0x1f`, `1e9` and `Infinity` */
const UNSIGNED_DECIMAL = /^\d+(?:\.\d+)?$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** A non-negative amount of milliseconds made finite: NaN and negatives → null, huge → MAX_SAFE_INTEGER. */
export function finiteMs(ms: number): number | null {
  if (!(ms >= 0)) return null;
  return ms >= Number.MAX_SAFE_INTEGER ? Number.MAX_SAFE_INTEGER : Math.ceil(ms);
}

/**
 * A Go duration (`1s`, `6m0s`, `12ms`, `1h2m3.5s`, OpenAI's reset headers) or
 * a protobuf duration (`30s`, `515092.73s`, `143h4m52.73s`, Gemini's
 * `retryDelay`) → milliseconds, rounded up. A sign is refused: a negative
 * wait means nothing to a breaker.
 */
export function parseDuration(text: string): number | null {
  const s = text.trim();
  if (s === '0') return 0;
  if (s.length === 0) return null;
  let total = 0;
  let at = 0;
  while (at < s.length) {
    DURATION_PART.lastIndex = at;
    const part = DURATION_PART.exec(s);
    if (part === null) return null;
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
    at = DURATION_PART.lastIndex;
  }
  return finiteMs(total);
}

/** An RFC 3339 time (Anthropic's `…-reset` headers) → epoch ms, or null. */
export function parseRfc3339(text: string): number | null {
  const s = text.trim();
  if (!RFC3339.test(s)) return null;
  const at = Date.parse(s);
  return Number.isFinite(at) ? at : null;
}

/**
 * An amount of seconds written by a provider — a header string or a JSON
 * number (epoch seconds, `resets_in_seconds`) → milliseconds, or null.
 * Negative, NaN, exponent and hex forms are refused.
 */
export function secondsToMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? finiteMs(value * 1000) : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  return UNSIGNED_DECIMAL.test(s) ? finiteMs(Number(s) * 1000) : null;
}

/** 00:00 UTC on the 1st of the month after `now`: when a monthly spend cap lifts. */
export function nextMonthStartUtc(now: number): number {
  const d = new Date(now);
  // month 12 rolls over into January of the next year
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
