/**
 * The lazy JSON reader and the writer under request translation: whatever
 * they read and write back means what `JSON.parse` reads, long strings
 * travel as the agent's own bytes, and bad bodies are named where they break.
 */
import { describe, expect, it } from 'vitest';
import { readJson } from '../../src/translate/json/read-json.js';
import { JoinedText, JsonText, RawString, dataUrlParts, joinText, textString } from '../../src/translate/json/text.js';
import { writeJson } from '../../src/translate/json/write-json.js';

const long = (s: string) => s.repeat(Math.ceil(200 / s.length));

const DOCUMENTS = [
  '{}',
  '[]',
  ' { "a" : [ 1 , -2.5e3 , 0.25 , true , false , null ] , "b" : { } } ',
  JSON.stringify({ short: 'héllo "q" \\ \n\t', emoji: '👋 中文', esc: '\u0001\u001f\u2028' }),
  JSON.stringify({ text: long('line of code "quoted" \\ \t\n ✕ — é '), nested: [{ deep: long('x') }] }),
  '{"raw":"' + long('\\u00e9\\/\\"') + '"}',
  JSON.stringify({ __proto__: 'member, not prototype', constructor: 1 }).replace('"constructor"', '"__proto__"'),
  JSON.stringify({ dup: 1, other: 2 }).replace('"other"', '"dup"'),
  JSON.stringify(['a', long('b'), { c: long('"') }]),
];

describe('readJson and writeJson', () => {
  it('read then write means what JSON.parse reads, whatever the strings', () => {
    for (const doc of DOCUMENTS) {
      const read = readJson(Buffer.from(doc));
      if (!read.ok) throw new Error(`${doc}: ${read.expected} at ${read.at}`);
      expect(JSON.parse(writeJson(read.value).toString()), doc).toEqual(JSON.parse(doc));
    }
  });

  it('keeps a long string as the bytes it was, and decodes short ones', () => {
    const escaped = '\\u00e9t\\u00e9 \\/ '.repeat(20);
    const body = Buffer.from(`{"short":"caf\\u00e9","long":"${escaped}"}`);
    const read = readJson(body);
    if (!read.ok) throw new Error('unreadable');
    const value = read.value as { short: unknown; long: unknown };
    expect(value.short).toBe('café');
    expect(value.long).toBeInstanceOf(RawString);
    expect(writeJson({ copied: value.long }).toString()).toBe(`{"copied":"${escaped}"}`);
    expect(textString(value.long as RawString)).toBe('été / '.repeat(20));
  });

  it('a member named __proto__ stays a member', () => {
    const read = readJson(Buffer.from('{"__proto__":{"polluted":true}}'));
    if (!read.ok) throw new Error('unreadable');
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    expect(Object.keys(read.value as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('names where a body breaks', () => {
    const cases: Array<[string, number, string]> = [
      ['', 0, 'a JSON value'],
      ['{"a":1,}', 7, 'a member name'],
      ['{"a" 1}', 5, '":"'],
      ['[1 2]', 3, '"," or "]"'],
      ['{"a":01}', 5, 'a JSON value'],
      ['{"a":tru}', 5, 'a JSON value'],
      [`{"a":"${'x'.repeat(200)}`, 5, 'a string that ends'],
      ['{"a":"tab\there"}', 9, 'no control character inside a string'],
      ['{"a":"\\q"}', 5, 'a valid string'],
      ['{} x', 3, 'the end of the body'],
    ];
    for (const [doc, at, expected] of cases) expect(readJson(Buffer.from(doc)), doc).toEqual({ ok: false, at, expected });
    expect(readJson(Buffer.from('['.repeat(300) + ']'.repeat(300)))).toMatchObject({
      ok: false,
      expected: 'at most 256 levels of nesting',
    });
  });

  it('writes joined texts part by part and a value as a JSON string, leaving out undefined members', () => {
    const raw = readJson(Buffer.from(`["${'é'.repeat(60)}"]`));
    if (!raw.ok) throw new Error('unreadable');
    const part = (raw.value as RawString[])[0]!;
    const value = {
      joined: new JoinedText(['a"b', part, joinText(['x', 'y'], '\n')], '\n\n'),
      json: new JsonText({ command: ['ls', '-la'], note: part }),
      gone: undefined,
      kept: [undefined, 1],
    };
    expect(JSON.parse(writeJson(value).toString())).toEqual({
      joined: `a"b\n\n${'é'.repeat(60)}\n\nx\ny`,
      json: JSON.stringify({ command: ['ls', '-la'], note: 'é'.repeat(60) }),
      kept: [null, 1],
    });
  });

  it('splits a data URL without decoding its payload', () => {
    const payload = 'iVBORw0KGgo'.repeat(40);
    const read = readJson(Buffer.from(JSON.stringify({ url: `data:image/png;base64,${payload}` })));
    if (!read.ok) throw new Error('unreadable');
    const parts = dataUrlParts((read.value as { url: RawString }).url);
    expect(parts?.header).toBe('data:image/png;base64');
    expect(parts?.data).toBeInstanceOf(RawString);
    expect(textString(parts!.data)).toBe(payload);
    expect(dataUrlParts('https://example.com/a.png')).toBeNull();
    expect(dataUrlParts(`data:image/gif;base64,${payload.slice(0, 8)}`)).toEqual({
      header: 'data:image/gif;base64',
      data: payload.slice(0, 8),
    });
  });
});
