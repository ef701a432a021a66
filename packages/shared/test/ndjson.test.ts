import { describe, expect, it } from 'vitest';
import { LineSplitter, encodeLine, controlRequestSchema } from '../src/index.js';

const lines = (results: ReturnType<LineSplitter['push']>) => results.map((r) => (r.kind === 'line' ? r.line : `!too_long:${r.length}`));

describe('NDJSON framing', () => {
  it('keeps a line split across two writes whole', () => {
    const s = new LineSplitter(100);
    expect(lines(s.push(Buffer.from('{"id":1,"cm')))).toEqual([]);
    expect(lines(s.push(Buffer.from('d":"hello"}\n{"id":2}\n')))).toEqual(['{"id":1,"cmd":"hello"}', '{"id":2}']);
  });

  it('decodes a multi-byte character split across chunks', () => {
    const s = new LineSplitter(100);
    const bytes = Buffer.from('{"seat":"café→☕"}\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the arrow's three bytes
    expect(lines(s.push(bytes.subarray(0, cut)))).toEqual([]);
    expect(lines(s.push(bytes.subarray(cut)))).toEqual(['{"seat":"café→☕"}']);
  });

  it('reports an over-long line once and resumes at the next newline', () => {
    const s = new LineSplitter(10);
    expect(lines(s.push('x'.repeat(25)))).toEqual(['!too_long:25']);
    expect(lines(s.push('yyyy\n{"a":1}\n'))).toEqual(['{"a":1}']);
  });

  it('skips blank lines, strips CR, and flushes an unterminated tail at end', () => {
    const s = new LineSplitter(100);
    expect(lines(s.push('\n\r\n{"a":1}\r\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines(s.end())).toEqual(['{"b"']);
  });

  it('encodes one value per line and validates control requests', () => {
    expect(encodeLine({ id: 1, cmd: 'hello' })).toBe('{"id":1,"cmd":"hello"}\n');
    expect(controlRequestSchema.safeParse({ id: 1, cmd: 'reset', seat: 'a', model: 'm' }).success).toBe(true);
    expect(controlRequestSchema.safeParse({ id: 1, cmd: 'reset', model: 'm' }).success).toBe(false);
    expect(controlRequestSchema.safeParse({ id: 1, cmd: 'launch' }).success).toBe(false);
    expect(controlRequestSchema.safeParse({ cmd: 'hello' }).success).toBe(false);
  });
});
