import { describe, expect, it } from 'vitest';
import { encodeModel, spliceModel, type OutboundBody } from '../../src/proxy/model-swap.js';
import { readAgentBody } from '../../src/proxy/request-body.js';
import { scanTopLevel, type Span } from '../../src/proxy/top-level-scan.js';

/**
 * The daemon reads `model` and `stream` by scanning the top level of the raw
 * body instead of `JSON.parse` (a 200 KB body made that parse the proxy's
 * biggest cost). It must agree with `JSON.parse` on every valid body; these
 * properties check it on thousands of generated ones (seeded, so a failure
 * replays): bodies written with random whitespace, random escapes in keys and
 * strings (quotes, backslash runs, `\u` spellings, surrogate pairs, `\/`),
 * nested and decoy "model" keys, duplicate keys, numbers in every spelling.
 */

/** mulberry32: small, seedable, good enough to pick shapes. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class BodyWriter {
  constructor(private readonly random: () => number) {}

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  ws(): string {
    return this.chance(0.6) ? '' : this.pick([' ', '\n', '\t', '\r\n', '  ', ' \n\t ']);
  }

  /** A decoded string value, built from fragments that trip naive scanners. */
  text(): string {
    const fragments = [
      'model',
      '"model":',
      '\\',
      '\\\\',
      '\\\\\\',
      '"',
      '\\"',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      'é',
      '模型',
      '🚀',
      '👩‍💻',
      '\n',
      '\t',
      '\u0001',
      '\u001f',
      ' ',
      'abc',
      '\u2028',
      '/',
      'stream',
      'true',
    ];
    let out = '';
    const n = Math.floor(this.random() * 8);
    for (let i = 0; i < n; i++) out += this.pick(fragments);
    return out;
  }

  /** `value` as a JSON string literal, each character spelled one of the ways JSON allows. */
  string(value: string): string {
    let out = '"';
    for (const ch of value) {
      const code = ch.codePointAt(0)!;
      const short: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };
      if (short[ch] !== undefined && (code < 0x20 || ch === '"' || ch === '\\' || this.chance(0.5))) {
        out += this.chance(0.8) ? short[ch] : unicodeEscape(ch);
      } else if (code < 0x20 || this.chance(0.08)) out += unicodeEscape(ch);
      else if (ch === '/' && this.chance(0.5)) out += '\\/';
      else out += ch;
    }
    return `${out}"`;
  }

  number(): string {
    return this.pick(['0', '-0', '7', '-12', '3.25', '1e3', '1E+3', '-2.5e-3', '123456789012', '0.0001', '1.0', '10e-0']);
  }

  value(depth: number): string {
    const kinds = depth >= 4 ? ['string', 'number', 'literal'] : ['string', 'number', 'literal', 'array', 'object', 'object'];
    switch (this.pick(kinds)) {
      case 'string':
        return this.string(this.chance(0.02) ? 'x"\\'.repeat(7000 + Math.floor(this.random() * 7000)) : this.text());
      case 'number':
        return this.number();
      case 'literal':
        return this.pick(['true', 'false', 'null']);
      case 'array': {
        const n = Math.floor(this.random() * 4);
        const items = Array.from({ length: n }, () => this.ws() + this.value(depth + 1) + this.ws());
        return `[${items.join(',') || this.ws()}]`;
      }
      default:
        return this.object(depth + 1, Math.floor(this.random() * 4), []);
    }
  }

  key(): string {
    return this.pick([
      'model',
      'model',
      'stream',
      'messages',
      'content',
      'x',
      'mod"el',
      'model ',
      'Model',
      'modelx',
      'stream\\',
      '',
      '"model"',
      '模型',
      'm\\odel',
    ]);
  }

  /** An object of `n` random members plus `forced` ones (each [key, value text]) at random places. */
  object(depth: number, n: number, forced: Array<[string, string]>): string {
    const members: string[] = Array.from({ length: n }, () => this.member(this.key(), this.value(depth)));
    for (const [key, value] of forced) members.splice(Math.floor(this.random() * (members.length + 1)), 0, this.member(key, value));
    return `{${members.join(',') || this.ws()}}`;
  }

  private member(key: string, value: string): string {
    return `${this.ws()}${this.string(key)}${this.ws()}:${this.ws()}${value}${this.ws()}`;
  }

  /** A request-like body: often a string model, sometimes none, two, or one of another type; stream of any type. */
  body(): string {
    const forced: Array<[string, string]> = [];
    const models = this.pick([0, 1, 1, 1, 2]);
    for (let i = 0; i < models; i++) forced.push(['model', this.chance(0.85) ? this.string(this.text()) : this.value(1)]);
    if (this.chance(0.6)) forced.push(['stream', this.pick(['true', 'false', 'null', '"true"', '1', '{"stream":true}'])]);
    return this.ws() + this.object(0, Math.floor(this.random() * 5), forced) + this.ws();
  }
}

function unicodeEscape(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

function outboundBytes(out: OutboundBody): Buffer {
  if (Buffer.isBuffer(out)) return out;
  const bytes = Buffer.concat(out.pieces);
  expect(bytes.length).toBe(out.length);
  return bytes;
}

function parseSpan(body: Buffer, span: Span | null): unknown {
  return span === null ? undefined : JSON.parse(body.toString('utf8', span.start, span.end));
}

const BODIES = 4000;

describe('the top-level scan agrees with JSON.parse on every valid body (property, seeded)', () => {
  const writer = new BodyWriter(prng(0x5eed));
  const texts = Array.from({ length: BODIES }, () => writer.body());

  it('the generator covers what it should', () => {
    const parsed = texts.map((t) => JSON.parse(t) as Record<string, unknown>);
    expect(parsed.filter((p) => typeof p.model === 'string').length).toBeGreaterThan(BODIES / 2);
    expect(parsed.filter((p) => !Object.hasOwn(p, 'model')).length).toBeGreaterThan(BODIES / 20);
    expect(parsed.filter((p) => Object.hasOwn(p, 'model') && typeof p.model !== 'string').length).toBeGreaterThan(BODIES / 50);
    expect(texts.filter((t) => t.includes('\\u')).length).toBeGreaterThan(BODIES / 4);
    expect(texts.filter((t) => Buffer.byteLength(t) > 16 * 1024).length).toBeGreaterThan(10);
  });

  it('finds the same model and stream values as JSON.parse, and readAgentBody says what JSON.parse would', () => {
    for (const text of texts) {
      const body = Buffer.from(text);
      const reference = JSON.parse(text) as Record<string, unknown>;
      const scan = scanTopLevel(body);
      if (scan.kind !== 'object') throw new Error(`scan refused a valid body: ${text.slice(0, 200)}`);
      expect(scan.model === null).toBe(!Object.hasOwn(reference, 'model'));
      expect(scan.stream === null).toBe(!Object.hasOwn(reference, 'stream'));
      expect(parseSpan(body, scan.model)).toStrictEqual(reference.model);
      expect(parseSpan(body, scan.stream)).toStrictEqual(reference.stream);

      const read = readAgentBody(body);
      if (typeof reference.model === 'string') {
        expect(read).toMatchObject({ ok: true, model: reference.model, stream: reference.stream === true });
      } else {
        expect(read.ok).toBe(false);
      }
    }
  });

  it('swapping the model equals parse → replace model → compare, and leaves every other byte alone', () => {
    const models = new BodyWriter(prng(7));
    let swaps = 0;
    for (const text of texts) {
      const body = Buffer.from(text);
      const read = readAgentBody(body);
      if (!read.ok) continue;
      const newModel = models.text();
      const swapped = outboundBytes(spliceModel(body, read.modelSpan, encodeModel(newModel)));
      const reference = JSON.parse(text) as Record<string, unknown>;
      reference.model = newModel;
      expect(JSON.parse(swapped.toString('utf8'))).toStrictEqual(reference);
      const { start, end } = read.modelSpan;
      expect(swapped.subarray(0, start).equals(body.subarray(0, start))).toBe(true);
      expect(swapped.subarray(swapped.length - (body.length - end)).equals(body.subarray(end))).toBe(true);
      swaps++;
    }
    expect(swaps).toBeGreaterThan(BODIES / 2);
  });

  it('refuses every cut-off body that JSON.parse refuses (a truncated upload is never forwarded)', () => {
    const cuts = prng(11);
    for (const text of texts.slice(0, 1500)) {
      const body = Buffer.from(text);
      for (let k = 0; k < 3; k++) {
        const prefix = body.subarray(0, Math.floor(cuts() * body.length));
        let valid = true;
        try {
          JSON.parse(prefix.toString('utf8'));
        } catch {
          valid = false;
        }
        if (!valid) expect(scanTopLevel(prefix).kind).not.toBe('object');
      }
    }
  });
});

describe('what the scan checks and what it leaves to the provider', () => {
  it.each([
    ['a trailing comma', '{"model":"m",}'],
    ['a missing colon', '{"model" "m"}'],
    ['a missing comma', '{"model":"m" "a":1}'],
    ['NaN as a top-level value', '{"model":"m","temperature":NaN}'],
    ['a bad number', '{"model":"m","n":01}'],
    ['a bare word', '{"model":"m","n":nul}'],
    ['bytes after the object', '{"model":"m"} x'],
    ['an unterminated string', '{"model":"m","a":"x}'],
    ['an unclosed array', '{"model":"m","messages":[{"a":1}'],
    ['a bracket closed by a brace', '{"model":"m","messages":[1}}'],
    ['a key that is not a string', '{model:"m"}'],
    ['a bad escape in a key spelled with escapes', '{"mod\\u00": "m"}'],
  ])('%s at the top level: 400 not valid JSON', (_what, text) => {
    expect(scanTopLevel(Buffer.from(text)).kind).toBe('malformed');
    expect(readAgentBody(Buffer.from(text))).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
  });

  it('a model value that is not valid JSON (parsed in full, unlike other values): 400 not valid JSON', () => {
    expect(readAgentBody(Buffer.from('{"model":"\\x"}'))).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
    expect(readAgentBody(Buffer.from('{"model":"m","stream":[1,]}'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('not valid JSON'),
    });
  });

  it('JSON that is not an object, and text that is not JSON, are told apart', () => {
    expect(readAgentBody(Buffer.from(' [{"model":"m"}]'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('must be a JSON object'),
    });
    expect(readAgentBody(Buffer.from('"m"'))).toMatchObject({ ok: false, message: expect.stringContaining('must be a JSON object') });
    expect(readAgentBody(Buffer.from('model: m'))).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
    expect(readAgentBody(Buffer.from('   '))).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
  });

  it.each([
    ['NaN deep in messages', '{"model":"m","messages":[{"role":"user","temperature":NaN}]}'],
    ['a bad escape inside a nested string', '{"messages":[{"content":"\\q"}],"model":"m"}'],
    ['a raw control character inside a string', '{"model":"m","system":"a\u0001b"}'],
    ['a trailing comma inside an array', '{"model":"m","stop":["a",]}'],
  ])('%s is forwarded as it is: the provider answers it (the lead’s decision)', (_what, text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(readAgentBody(Buffer.from(text))).toMatchObject({ ok: true, model: 'm' });
  });
});
