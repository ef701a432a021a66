import { describe, expect, it } from 'vitest';
import { TextRing } from '../../src/events/text-ring.js';

describe('text ring', () => {
  it('keeps the last texts in order, oldest first, and as many as asked for', () => {
    const ring = new TextRing(3, 16);
    expect(ring.last()).toEqual([]);
    ring.push('a');
    ring.push('bb');
    expect(ring.last()).toEqual(['a', 'bb']);
    ring.push('ccc');
    ring.push('dddd');
    expect(ring.size).toBe(3);
    expect(ring.last()).toEqual(['bb', 'ccc', 'dddd']);
    expect(ring.last(2)).toEqual(['ccc', 'dddd']);
    expect(ring.last(10)).toEqual(['bb', 'ccc', 'dddd']);
  });

  it('gives back every text as it was, through compactions, growth and multi-byte characters', () => {
    const slots = 7;
    const ring = new TextRing(slots, 8);
    const pushed: string[] = [];
    for (let i = 0; i < 500; i++) {
      // sizes that vary widely, so the kept texts move to the front and the buffer grows
      const text = `${i}:${'é漢🚀x'.repeat(i % 23)}${'y'.repeat((i * 37) % 300)}`;
      ring.push(text);
      pushed.push(text);
      expect(ring.last()).toEqual(pushed.slice(-slots));
    }
  });

  it('takes a text bigger than everything before it', () => {
    const ring = new TextRing(2, 4);
    ring.push('small');
    const big = 'z'.repeat(10_000);
    ring.push(big);
    expect(ring.last()).toEqual(['small', big]);
  });
});
