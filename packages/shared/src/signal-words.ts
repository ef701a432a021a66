import type { Signal } from './breaker/breaker.js';

/**
 * A signal as people read it, in `logs`, `status`, `why` and `top`:
 * `429 insufficient_quota`, `400 credit balance is too low`,
 * `529 overloaded_error`, and for a held breaker
 * `quota until 14:00 (anthropic-ratelimit-unified-reset)`.
 * One copy for `logs`, `status` and `top`. Pure: the time of day is formatted
 * from an explicit UTC offset, never from the machine's zone, so tests are
 * stable and the caller decides which zone people see.
 */

/** Phrases that say what a message is about, shown when neither the code nor the type says it. */
const TELLING_PHRASES: ReadonlyArray<readonly [needle: string, words: string]> = [
  ['credit balance is too low', 'credit balance is too low'],
  ['extra usage', 'extra usage required'],
  ['insufficient credits', 'insufficient credits'],
];

/**
 * Catch-all types and codes: a provider sends each of them for many causes
 * (Anthropic's empty balance is a 400 `invalid_request_error`, its long-context
 * refusal a 429 `rate_limit_error`), so a telling phrase of the message says
 * more. Every other type or code names its cause (`billing_error`,
 * `overloaded_error`, `insufficient_quota`) and is shown as it is.
 */
const GENERIC_WORDS: ReadonlySet<string> = new Set(['invalid_request_error', 'api_error', 'rate_limit_error', 'server_error', 'error']);

const SHORT_MESSAGE = 48;

/**
 * `STATUS WORD`, the word being the first of: a specific code, a specific
 * type, a telling phrase of the message, a generic code or type, the message
 * cut short. A code that is only digits repeats the status and is skipped.
 */
export function signalWords(signal: Signal): string {
  const word = signalWord(signal);
  if (signal.status === null) return word ?? 'no details';
  return word === null ? String(signal.status) : `${signal.status} ${word}`;
}

function signalWord(signal: Signal): string | null {
  const code = signal.code !== null && !/^\d+$/.test(signal.code) ? signal.code : null;
  const named = [code, signal.type].filter((word): word is string => word !== null);
  const specific = named.find((word) => !GENERIC_WORDS.has(word));
  if (specific !== undefined) return specific;
  const message = signal.message?.toLowerCase();
  if (message !== undefined) {
    for (const [needle, words] of TELLING_PHRASES) if (message.includes(needle)) return words;
  }
  if (named[0] !== undefined) return named[0];
  if (signal.message !== null)
    return signal.message.length <= SHORT_MESSAGE ? signal.message : `${signal.message.slice(0, SHORT_MESSAGE - 1)}…`;
  return null;
}

/** The name of the header a signal's deadline came from (`anthropic-ratelimit-unified-reset`), or null. */
export function signalHeaderName(signal: Signal | null): string | null {
  const header = signal?.header;
  if (header == null) return null;
  const colon = header.indexOf(':');
  return (colon === -1 ? header : header.slice(0, colon)).trim() || null;
}

/**
 * `WHAT until TIME (HEADER)`: `quota until 14:00 (anthropic-ratelimit-unified-reset)`,
 * `rate limit until 09:41 (retry-after)`, `quota until Dec 1 00:00` (a deadline
 * read from the body names no header). `time` formats the deadline, e.g. with
 * `clockTime`.
 */
export function untilWords(what: string, until: number, signal: Signal | null, time: (at: number) => string): string {
  const header = signalHeaderName(signal);
  return header === null ? `${what} until ${time(until)}` : `${what} until ${time(until)} (${header})`;
}

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A deadline as a wall-clock time in a zone `utcOffsetMinutes` east of UTC:
 * `14:00` when it is less than a day from `now` (the next 14:00 is meant),
 * else with its date, `Dec 6 14:00`, because Codex and weekly windows reset
 * days away. Callers in a real zone pass `-new Date(at).getTimezoneOffset()`.
 */
export function clockTime(at: number, now: number, utcOffsetMinutes: number): string {
  if (!Number.isFinite(at)) return 'never';
  const local = new Date(at + utcOffsetMinutes * 60_000);
  if (Number.isNaN(local.getTime())) return 'never';
  const time = `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}`;
  if (Math.abs(at - now) < DAY_MS) return time;
  return `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()} ${time}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
