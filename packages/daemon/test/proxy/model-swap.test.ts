import { describe, expect, it } from 'vitest';
import { encodeModel, spliceModel, type OutboundBody } from '../../src/proxy/model-swap.js';
import { readAgentBody } from '../../src/proxy/request-body.js';
import { scanTopLevel } from '../../src/proxy/top-level-scan.js';

/** The bytes that go upstream, whether the swap copied them or left them in pieces; the length must be theirs. */
function outboundBytes(out: OutboundBody): Buffer {
  if (Buffer.isBuffer(out)) return out;
  const bytes = Buffer.concat(out.pieces);
  expect(bytes.length).toBe(out.length);
  return bytes;
}

/** The reference: parse, replace the top-level model, compare as values. */
function expectSwapMatchesReference(text: string, newModel: string): Buffer {
  const body = Buffer.from(text);
  const scan = scanTopLevel(body);
  if (scan.kind !== 'object' || scan.model === null) throw new Error(`no top-level model found in ${text}`);
  const swapped = outboundBytes(spliceModel(body, scan.model, encodeModel(newModel)));
  const reference = JSON.parse(text);
  reference.model = newModel;
  expect(JSON.parse(swapped.toString('utf8'))).toStrictEqual(reference);
  return swapped;
}

describe('model swap in the raw body', () => {
  it('replaces only the top-level model value and keeps every other byte', () => {
    const text = '{"model":"sonnet","max_tokens":1e3,"messages":[{"role":"user","content":"hi"}]}';
    const swapped = expectSwapMatchesReference(text, 'claude-sonnet-5');
    expect(swapped.toString()).toBe('{"model":"claude-sonnet-5","max_tokens":1e3,"messages":[{"role":"user","content":"hi"}]}');
  });

  it('ignores "model" keys inside nested objects and arrays, before and after the real one', () => {
    const text =
      '{"tools":[{"model":"nested-a"}],"meta":{"model":"nested-b","x":{"model":[1,{"model":2}]}},"model":"top","after":{"model":"nested-c"}}';
    const swapped = expectSwapMatchesReference(text, 'real');
    expect(swapped.toString()).toContain('"model":"nested-a"');
    expect(swapped.toString()).toContain('"model":"nested-c"');
  });

  it('handles escaped quotes and backslashes in strings around the model', () => {
    const text = '{"system":"say \\"model\\": \\\\ \\"x\\"","model":"a\\"b\\\\","note":"}{]["}';
    expectSwapMatchesReference(text, 'new"model\\with escapes');
  });

  it('handles unicode text, escaped unicode and a non-ASCII model name', () => {
    const text = '{"content":"héllo wörld 🚀 \\u00e9","model":"模型-1","emoji":"👩‍💻"}';
    const swapped = expectSwapMatchesReference(text, 'modèle-2 🚀');
    expect(swapped.toString('utf8')).toContain('"content":"héllo wörld 🚀 \\u00e9"');
  });

  it('keeps whitespace and newlines as the agent wrote them', () => {
    const text = '{\n  "stream" : true ,\n\t"model"   :   "m1"  ,\r\n  "n": [ 1 , 2 ]\n}\n';
    const swapped = expectSwapMatchesReference(text, 'm2');
    expect(swapped.toString()).toBe('{\n  "stream" : true ,\n\t"model"   :   "m2"  ,\r\n  "n": [ 1 , 2 ]\n}\n');
  });

  it('with duplicate top-level keys replaces the last one, the one JSON.parse keeps', () => {
    const text = '{"model":"first","x":1,"model":"second"}';
    const swapped = expectSwapMatchesReference(text, 'third');
    expect(swapped.toString()).toBe('{"model":"first","x":1,"model":"third"}');
  });

  it('finds a key spelled with escapes ("mod\\u0065l")', () => {
    expectSwapMatchesReference('{"a":"b","mod\\u0065l":"x"}', 'y');
  });

  it('handles model as the only key, the last key, and values of every kind before it', () => {
    expectSwapMatchesReference('{"model":"x"}', 'y');
    expectSwapMatchesReference('{"a":null,"b":true,"c":false,"d":-1.5e-3,"e":[],"f":{},"g":"","model":"x"}', 'y');
  });

  it('readAgentBody rejects what is not an object with a string model, naming why', () => {
    expect(readAgentBody(undefined)).toMatchObject({ ok: false, message: expect.stringContaining('empty') });
    expect(readAgentBody(Buffer.from('{oops'))).toMatchObject({ ok: false, message: expect.stringContaining('not valid JSON') });
    expect(readAgentBody(Buffer.from('[1]'))).toMatchObject({ ok: false, message: expect.stringContaining('JSON object') });
    expect(readAgentBody(Buffer.from('{"messages":[]}'))).toMatchObject({ ok: false, message: expect.stringContaining('no "model"') });
    expect(readAgentBody(Buffer.from('{"model":42}'))).toMatchObject({ ok: false, message: expect.stringContaining('a number') });
    expect(readAgentBody(Buffer.from('{"model":"m","stream":true}'))).toMatchObject({ ok: true, model: 'm', stream: true });
  });
});
