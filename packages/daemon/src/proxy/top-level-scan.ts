/**
 * Reads what the proxy needs from an agent's JSON body — where the top-level
 * `model` and `stream` values are, and the members a session key may come
 * from — without turning the body into a string or an object. On a 200 KB
 * body `toString` + `JSON.parse` cost more than a bare proxy's whole
 * request; this scan costs a fraction of that.
 *
 * What it checks: the top level exactly — one object, its keys, colons,
 * commas, the scalar values (literals and numbers), that every string ends
 * and every nested bracket closes with its own kind, nothing but whitespace
 * after the closing brace. What it does not check: the insides of strings
 * and of nested arrays and objects other than their brackets. A body
 * malformed only in there (a bad escape, `NaN` deep in `messages`) is
 * forwarded, and the provider's own 400 comes back to the agent unchanged
 * (the lead's decision; the alternative was a full parse of every body).
 * For every valid JSON body the result equals `JSON.parse`'s: the last
 * duplicate key wins, keys are compared after their escapes are decoded
 * (see test/proxy/top-level-scan.test.ts).
 *
 * It works on UTF-8 bytes: every structural character is ASCII and every
 * byte of a multi-byte character is >= 0x80, so they never collide.
 */

/** Byte offsets of a value: `start` inclusive, `end` exclusive. */
export interface Span {
  start: number;
  end: number;
}

export type TopLevelScan =
  /**
   * the spans of the last top-level `model`, `stream`, `metadata` and
   * `prompt_cache_key` values, when present (the last two carry a session key,
   * see policy/session-key.ts)
   */
  | { kind: 'object'; model: Span | null; stream: Span | null; metadata: Span | null; promptCacheKey: Span | null }
  /** the first byte that is not whitespace does not open an object */
  | { kind: 'not_object' }
  /** the top level breaks the grammar */
  | { kind: 'malformed' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** Member names looked for, as bytes (compared raw) and as text (compared once a key's escapes are decoded). */
export interface Names {
  readonly bytes: readonly Buffer[];
  readonly text: readonly string[];
}

export function names(...text: string[]): Names {
  return { bytes: text.map((t) => Buffer.from(t)), text };
}

const MODEL = 0;
const STREAM = 1;
const METADATA = 2;
const PROMPT_CACHE_KEY = 3;
const TOP_LEVEL_NAMES = names('model', 'stream', 'metadata', 'prompt_cache_key');
const LITERALS = [Buffer.from('true'), Buffer.from('false'), Buffer.from('null')];
const MALFORMED: TopLevelScan = { kind: 'malformed' };
const NOT_OBJECT: TopLevelScan = { kind: 'not_object' };

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipWhitespace(buf: Buffer, i: number): number {
  while (isWhitespace(buf[i])) i++;
  return i;
}

/**
 * `i` at an opening quote → the index just past the closing quote, or -1 if
 * the string never ends. Jumps from quote to quote with the native `indexOf`
 * (most of a big body is string content; a byte loop here was the daemon's
 * top cost on 200 KB bodies); a quote is escaped exactly when an odd run of
 * backslashes precedes it.
 */
function skipString(buf: Buffer, i: number): number {
  let quote = buf.indexOf(QUOTE, i + 1);
  while (quote !== -1) {
    let before = quote - 1;
    while (buf[before] === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    quote = buf.indexOf(QUOTE, quote + 1);
  }
  return -1;
}

/** `i` at `{` or `[` → the index just past its matching closer, or -1 (unclosed, or closed by the other kind). */
function skipContainer(buf: Buffer, i: number): number {
  const closers: number[] = [];
  while (i < buf.length) {
    const c = buf[i]!;
    if (c === QUOTE) {
      i = skipString(buf, i);
      if (i === -1) return -1;
      continue;
    }
    if (c === OPEN_BRACE) closers.push(CLOSE_BRACE);
    else if (c === OPEN_BRACKET) closers.push(CLOSE_BRACKET);
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (closers.pop() !== c) return -1;
      if (closers.length === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

function skipDigits(buf: Buffer, i: number): number {
  while (i < buf.length && buf[i]! >= ZERO && buf[i]! <= NINE) i++;
  return i;
}

/** Is [start, end) exactly a JSON number? `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?` */
function isNumber(buf: Buffer, start: number, end: number): boolean {
  let i = start;
  if (buf[i] === MINUS) i++;
  if (buf[i] === ZERO) i++;
  else if (buf[i]! > ZERO && buf[i]! <= NINE) i = skipDigits(buf, i);
  else return false;
  if (buf[i] === DOT) {
    const from = i + 1;
    i = skipDigits(buf, from);
    if (i === from) return false;
  }
  if (buf[i] === 0x65 || buf[i] === 0x45) {
    i++;
    if (buf[i] === PLUS || buf[i] === MINUS) i++;
    const from = i;
    i = skipDigits(buf, from);
    if (i === from) return false;
  }
  return i === end;
}

function isScalar(buf: Buffer, start: number, end: number): boolean {
  for (const literal of LITERALS) {
    if (end - start === literal.length && buf.compare(literal, 0, literal.length, start, end) === 0) return true;
  }
  return isNumber(buf, start, end);
}

/** `i` at the first byte of a value → the index just past it, or -1 when the value is not well formed at this level. */
function skipValue(buf: Buffer, i: number): number {
  const c = buf[i];
  if (c === QUOTE) return skipString(buf, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return skipContainer(buf, i);
  // a literal or a number: runs to the next delimiter, then must be exactly one
  let end = i;
  while (end < buf.length) {
    const d = buf[end]!;
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isWhitespace(d)) break;
    end++;
  }
  return end > i && isScalar(buf, i, end) ? end : -1;
}

const OTHER_KEY = -1;
const MALFORMED_KEY = -2;

/** Which of `wanted` the key string at [start, end) (quotes included) names once its escapes are decoded. */
function keyAt(buf: Buffer, start: number, end: number, wanted: Names): number {
  const inner = end - start - 2;
  for (let k = 0; k < wanted.bytes.length; k++) {
    const name = wanted.bytes[k]!;
    if (inner === name.length && buf.compare(name, 0, name.length, start + 1, end - 1) === 0) return k;
  }
  // `"mod\u0065l"` is also "model"; rare, so only keys with an escape are decoded
  const backslash = buf.indexOf(BACKSLASH, start);
  if (backslash === -1 || backslash >= end) return OTHER_KEY;
  let key: unknown;
  try {
    key = JSON.parse(buf.toString('utf8', start, end));
  } catch {
    return MALFORMED_KEY;
  }
  return typeof key === 'string' ? wanted.text.indexOf(key) : OTHER_KEY;
}

/**
 * `i` at `{` → the spans of the last members named in `wanted` (by index) and
 * the index just past the closing brace; null when the object's own level
 * breaks the grammar.
 */
function scanObject(buf: Buffer, i: number, wanted: Names): { spans: (Span | null)[]; end: number } | null {
  const spans: (Span | null)[] = wanted.bytes.map(() => null);
  i = skipWhitespace(buf, i + 1);
  if (buf[i] === CLOSE_BRACE) return { spans, end: i + 1 };
  for (;;) {
    if (buf[i] !== QUOTE) return null;
    const keyStart = i;
    const keyEnd = skipString(buf, i);
    if (keyEnd === -1) return null;
    i = skipWhitespace(buf, keyEnd);
    if (buf[i] !== COLON) return null;
    i = skipWhitespace(buf, i + 1);
    const valueStart = i;
    const valueEnd = skipValue(buf, i);
    if (valueEnd === -1) return null;
    const key = keyAt(buf, keyStart, keyEnd, wanted);
    if (key === MALFORMED_KEY) return null;
    if (key >= 0) spans[key] = { start: valueStart, end: valueEnd };
    i = skipWhitespace(buf, valueEnd);
    if (buf[i] === CLOSE_BRACE) return { spans, end: i + 1 };
    if (buf[i] !== COMMA) return null;
    i = skipWhitespace(buf, i + 1);
  }
}

/** Scans the top level of a JSON body (see the file comment for what is and is not checked). */
export function scanTopLevel(buf: Buffer): TopLevelScan {
  const i = skipWhitespace(buf, 0);
  if (buf[i] !== OPEN_BRACE) return NOT_OBJECT;
  const object = scanObject(buf, i, TOP_LEVEL_NAMES);
  if (object === null) return MALFORMED;
  // past the closing brace: only whitespace
  if (skipWhitespace(buf, object.end) !== buf.length) return MALFORMED;
  const { spans } = object;
  return {
    kind: 'object',
    model: spans[MODEL] ?? null,
    stream: spans[STREAM] ?? null,
    metadata: spans[METADATA] ?? null,
    promptCacheKey: spans[PROMPT_CACHE_KEY] ?? null,
  };
}

/**
 * The span of the last member `name` of the object at `object` (a span the
 * top-level scan found), checked the same way as the top level; null when the
 * value is not an object, has no such member, or its own level is malformed.
 */
export function memberSpan(buf: Buffer, object: Span, name: Names): Span | null {
  if (buf[object.start] !== OPEN_BRACE) return null;
  const scanned = scanObject(buf, object.start, name);
  return scanned === null || scanned.end !== object.end ? null : (scanned.spans[0] ?? null);
}
