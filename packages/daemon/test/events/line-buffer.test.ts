import { describe, expect, it } from 'vitest';
import { LineBuffer } from '../../src/events/line-buffer.js';

describe('line buffer', () => {
  it('gathers lines as UTF-8 with a newline each, growing past its start size', () => {
    const lines = new LineBuffer(16);
    const texts = ['{"a":1}', 'é—漢字 and 🚀', 'x'.repeat(100), ''];
    for (const t of texts) lines.appendLine(t);
    const expected = Buffer.from(texts.map((t) => `${t}\n`).join(''));
    expect(lines.length).toBe(expected.length);
    expect(lines.view().equals(expected)).toBe(true);
  });

  it('is empty after clear and reuses its bytes for what comes next', () => {
    const lines = new LineBuffer(64);
    lines.appendLine('first');
    expect(lines.view().toString()).toBe('first\n');
    lines.clear();
    expect(lines.length).toBe(0);
    lines.appendLine('second');
    expect(lines.view().toString()).toBe('second\n');
  });

  it('lets a burst-grown buffer go on clear, and still takes what comes after', () => {
    const lines = new LineBuffer(8);
    lines.appendLine('y'.repeat(1000));
    lines.clear();
    lines.appendLine('after');
    expect(lines.view().toString()).toBe('after\n');
  });

  it('measures a line that may not fit before writing it: no text is cut', () => {
    // 3 bytes per code unit near the end of the buffer
    const lines = new LineBuffer(32);
    lines.appendLine('a'.repeat(20));
    lines.appendLine('漢'.repeat(10));
    expect(lines.view().toString()).toBe(`${'a'.repeat(20)}\n${'漢'.repeat(10)}\n`);
  });
});
