/**
 * Replacing the body's `model` without re-serialising the body: the agent's
 * bytes go upstream unchanged except the value of the top-level "model" key.
 * This keeps large bodies cheap (one scan, one concat) and guarantees
 * "nothing else in the body changed" — key order, spacing, number spellings
 * and escapes included.
 *
 * The scanner only ever runs on bytes `JSON.parse` already accepted, so it
 * can trust the grammar and just track structure. It works on UTF-8 bytes:
 * every structural character is ASCII and every byte of a multi-byte
 * character is >= 0x80, so they never collide.
 */

/** Byte offsets of a value: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MODEL = Buffer.from('model');

function skipWhitespace(buf: Buffer, i: number): number {
  while (i < buf.length) {
    const c = buf[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/**
 * `i` at an opening quote → the index just past the closing quote. Jumps from
 * quote to quote with the native `indexOf` (most of a big body is string
 * content: a byte loop here was the daemon's top cost on 200 KB bodies); a
 * quote is escaped exactly when an odd run of backslashes precedes it.
 */
function skipString(buf: Buffer, i: number): number {
  let quote = buf.indexOf(QUOTE, i + 1);
  while (quote !== -1) {
    let before = quote - 1;
    while (buf[before] === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    quote = buf.indexOf(QUOTE, quote + 1);
  }
  return buf.length;
}

/** `i` at the first byte of any value → the index just past it. */
function skipValue(buf: Buffer, i: number): number {
  const c = buf[i];
  if (c === QUOTE) return skipString(buf, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    while (i < buf.length) {
      const d = buf[i]!;
      if (d === QUOTE) {
        i = skipString(buf, i);
        continue;
      }
      if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  // number, true, false, null: runs until a delimiter
  while (i < buf.length) {
    const d = buf[i]!;
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) break;
    i++;
  }
  return i;
}

/** Is the key string at [start, end) (quotes included) the key `model`? Escapes are decoded. */
function isModelKey(buf: Buffer, start: number, end: number): boolean {
  const inner = end - start - 2;
  if (inner === MODEL.length && buf.compare(MODEL, 0, MODEL.length, start + 1, end - 1) === 0) return true;
  // `"mod\u0065l"` is also "model"; rare, so decode only keys that contain an escape
  const escape = buf.indexOf(BACKSLASH, start);
  if (escape === -1 || escape >= end) return false;
  return JSON.parse(buf.toString('utf8', start, end)) === 'model';
}

/**
 * The span of the top-level "model" value, or null when the top level has
 * none. With duplicate keys the last one wins, as it does for `JSON.parse`.
 * `buf` must hold a JSON object `JSON.parse` accepted.
 */
export function findModelSpan(buf: Buffer): Span | null {
  let i = skipWhitespace(buf, 0);
  if (buf[i] !== OPEN_BRACE) return null;
  i++;
  let found: Span | null = null;
  while (i < buf.length) {
    i = skipWhitespace(buf, i);
    const c = buf[i];
    if (c === CLOSE_BRACE) break;
    if (c === COMMA) {
      i++;
      continue;
    }
    const keyStart = i;
    const keyEnd = skipString(buf, i);
    i = skipWhitespace(buf, keyEnd);
    if (buf[i] !== COLON) return null; // cannot happen on parsed JSON; refuse rather than guess
    i = skipWhitespace(buf, i + 1);
    const valueEnd = skipValue(buf, i);
    if (isModelKey(buf, keyStart, keyEnd)) found = { start: i, end: valueEnd };
    i = valueEnd;
  }
  return found;
}

/** The body with the bytes at `span` replaced by `value` (already JSON-encoded). */
export function spliceModel(body: Buffer, span: Span, value: Buffer): Buffer {
  return Buffer.concat([body.subarray(0, span.start), value, body.subarray(span.end)], body.length - (span.end - span.start) + value.length);
}

/** `model` encoded as the JSON string that replaces the old value. */
export function encodeModel(model: string): Buffer {
  return Buffer.from(JSON.stringify(model));
}
