import { RawString, type Str, type Text } from './text.js';

/**
 * An agent's JSON body read without turning it into one string: objects,
 * arrays, numbers and short strings as `JSON.parse` gives them; a string
 * longer than `SHORT` bytes stays a `RawString` over the body's bytes
 * (found with the native `indexOf`, never decoded). Most of a coding
 * agent's body is long strings (file contents, tool results, prompts):
 * reading it this way costs a fraction of `toString` + `JSON.parse`, and
 * writing the translated body copies those bytes instead of escaping the
 * text again.
 *
 * The grammar is checked everywhere except inside long strings, whose
 * bytes go upstream as the agent sent them (a bad escape in there gets the
 * provider's own 400, as an untranslated body would).
 */

/** What a request mapping reads: the SDK's type, its free-text strings possibly raw. */
export type Lazy<T> = T extends string
  ? string extends T
    ? Text
    : T
  : T extends ReadonlyArray<infer U>
    ? Array<Lazy<U>>
    : T extends object
      ? { [K in keyof T]: Lazy<T[K]> }
      : T;

export type ReadResult = { ok: true; value: unknown } | { ok: false; at: number; expected: string };

/** Strings up to this many bytes are decoded: names, types, ids and short texts, which mappings read. */
const SHORT = 96;
/** Deeper than this is refused (the reader recurses). */
const MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

class Malformed {
  constructor(
    readonly at: number,
    readonly expected: string,
  ) {}
}

export function readJson(buf: Buffer): ReadResult {
  const reader = new Reader(buf);
  try {
    const value = reader.value(0);
    reader.whitespace();
    if (reader.at !== buf.length) return { ok: false, at: reader.at, expected: 'the end of the body' };
    return { ok: true, value };
  } catch (err) {
    if (err instanceof Malformed) return { ok: false, at: err.at, expected: err.expected };
    throw err;
  }
}

class Reader {
  at = 0;

  constructor(private readonly buf: Buffer) {}

  whitespace(): void {
    const buf = this.buf;
    let i = this.at;
    let c = buf[i];
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = buf[++i];
    this.at = i;
  }

  value(depth: number): unknown {
    if (depth > MAX_DEPTH) throw new Malformed(this.at, `at most ${MAX_DEPTH} levels of nesting`);
    this.whitespace();
    const c = this.buf[this.at];
    switch (c) {
      case QUOTE:
        return this.string();
      case OPEN_BRACE:
        return this.object(depth);
      case OPEN_BRACKET:
        return this.array(depth);
      case 0x74:
        return this.literal(TRUE, true);
      case 0x66:
        return this.literal(FALSE, false);
      case 0x6e:
        return this.literal(NULL, null);
      default:
        return this.number();
    }
  }

  private object(depth: number): Record<string, unknown> {
    const buf = this.buf;
    const out: Record<string, unknown> = {};
    this.at++;
    this.whitespace();
    if (buf[this.at] === CLOSE_BRACE) {
      this.at++;
      return out;
    }
    for (;;) {
      this.whitespace();
      if (buf[this.at] !== QUOTE) throw new Malformed(this.at, 'a member name');
      const name = this.string();
      const key = typeof name === 'string' ? name : name.toString();
      this.whitespace();
      if (buf[this.at] !== COLON) throw new Malformed(this.at, '":"');
      this.at++;
      const value = this.value(depth + 1);
      // a member named __proto__ is a member, as JSON.parse makes it
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.whitespace();
      const next = buf[this.at++];
      if (next === COMMA) continue;
      if (next === CLOSE_BRACE) return out;
      throw new Malformed(this.at - 1, '"," or "}"');
    }
  }

  private array(depth: number): unknown[] {
    const buf = this.buf;
    const out: unknown[] = [];
    this.at++;
    this.whitespace();
    if (buf[this.at] === CLOSE_BRACKET) {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.whitespace();
      const next = buf[this.at++];
      if (next === COMMA) continue;
      if (next === CLOSE_BRACKET) return out;
      throw new Malformed(this.at - 1, '"," or "]"');
    }
  }

  /** At an opening quote: a short string decoded, a long one as its bytes. */
  private string(): Str {
    const buf = this.buf;
    const start = this.at + 1;
    const limit = Math.min(buf.length, start + SHORT);
    let escaped = false;
    for (let i = start; i < limit; i++) {
      const c = buf[i]!;
      if (c === QUOTE) {
        this.at = i + 1;
        if (!escaped) return buf.toString('utf8', start, i);
        try {
          return JSON.parse(buf.toString('utf8', start - 1, i + 1)) as string;
        } catch {
          throw new Malformed(start - 1, 'a valid string');
        }
      }
      if (c === BACKSLASH) {
        escaped = true;
        i++;
      } else if (c < 0x20) throw new Malformed(i, 'no control character inside a string');
    }
    // long: the closing quote is the first one after an even run of backslashes
    let quote = buf.indexOf(QUOTE, limit);
    while (quote !== -1) {
      let before = quote - 1;
      while (buf[before] === BACKSLASH) before--;
      if ((quote - 1 - before) % 2 === 0) break;
      quote = buf.indexOf(QUOTE, quote + 1);
    }
    if (quote === -1) throw new Malformed(start - 1, 'a string that ends');
    this.at = quote + 1;
    return new RawString(buf, start, quote);
  }

  private literal(bytes: Buffer, value: boolean | null): boolean | null {
    const end = this.at + bytes.length;
    if (this.buf.compare(bytes, 0, bytes.length, this.at, end) !== 0) throw new Malformed(this.at, 'a JSON value');
    this.at = end;
    return value;
  }

  private number(): number {
    const buf = this.buf;
    const start = this.at;
    let i = start;
    for (;;) {
      const c = buf[i];
      if (c === undefined || !((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45)) break;
      i++;
    }
    const text = buf.toString('latin1', start, i);
    if (!NUMBER.test(text)) throw new Malformed(start, 'a JSON value');
    this.at = i;
    return Number(text);
  }
}
