import type { DecisionChainEntry } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { decisionHeader, MAX_DECISION_BYTES } from '../../src/policy/decision-header.js';

function entry(seat: string, model: string, over: Partial<DecisionChainEntry> = {}): DecisionChainEntry {
  return { seat, model, state: 'healthy', reason: null, pinned: false, left_ms: null, ...over };
}

const HOUR = 3_600_000;

describe('the x-routeplane-decision value', () => {
  it("is the spec's example line exactly", () => {
    const chain = [
      entry('max-2', 'claude-sonnet-4-5'),
      entry('max-1', 'claude-sonnet-4-5', { state: 'tripped', reason: 'quota', left_ms: 2 * HOUR + 14 * 60_000 + 59_999 }),
      entry('api', 'claude-sonnet-4-5', { state: 'skipped', reason: 'drained' }),
    ];
    expect(decisionHeader(chain, false)).toBe(
      'max-2/claude-sonnet-4-5(healthy) -> max-1/claude-sonnet-4-5(tripped: quota, 2h14m) -> api/claude-sonnet-4-5(skipped: drained)',
    );
  });

  it('writes every state', () => {
    const chain = [
      entry('a', 'm', { state: 'probe', reason: 'credit', left_ms: 0 }),
      entry('b', 'm', { state: 'tripped', reason: 'model_errors', left_ms: null }),
      entry('c', 'm', { state: 'tripped', reason: 'rate_limit', left_ms: 41_999 }),
      entry('d', 'm', { state: 'skipped', reason: 'protocol' }),
    ];
    expect(decisionHeader(chain, false)).toBe(
      'a/m(probe) -> b/m(tripped: model_errors) -> c/m(tripped: rate_limit, 41s) -> d/m(skipped: protocol)',
    );
  });

  it('a pinned entry reads pinned whatever its breaker says', () => {
    const chain = [entry('max-1', 'm', { state: 'tripped', reason: 'credit', left_ms: 5000, pinned: true }), entry('max-2', 'm')];
    expect(decisionHeader(chain, false)).toBe('max-1/m(pinned) -> max-2/m(healthy)');
  });

  it('failing open writes fail-open and the reason, with no time left', () => {
    const chain = [
      entry('a', 'm', { state: 'tripped', reason: 'credit', left_ms: 30_000 }),
      entry('b', 'm', { state: 'tripped', reason: 'rate_limit', left_ms: 4000 }),
      entry('c', 'm', { state: 'skipped', reason: 'drained' }),
    ];
    expect(decisionHeader(chain, true)).toBe('a/m(fail-open: credit) -> b/m(fail-open: rate_limit) -> c/m(skipped: drained)');
  });

  it('skipped entries come after all the others, in the order given (configured)', () => {
    const chain = [
      entry('x', 'm', { state: 'skipped', reason: 'protocol' }),
      entry('a', 'm'),
      entry('y', 'm', { state: 'skipped', reason: 'drained' }),
      entry('b', 'm', { state: 'tripped', reason: 'credit', left_ms: 1000 }),
    ];
    expect(decisionHeader(chain, false)).toBe(
      'a/m(healthy) -> b/m(tripped: credit, 1s) -> x/m(skipped: protocol) -> y/m(skipped: drained)',
    );
  });

  it.each([
    [41_000, '41s'],
    [41_999, '41s'],
    [185_999, '3m05s'],
    [HOUR + 60_000, '1h01m'],
    [HOUR + 119_999, '1h01m'],
    [2 * 24 * HOUR + 3 * HOUR + 59 * 60_000, '2d03h'],
    [999, '0s'],
  ])('time left %d ms reads %s (rounded down)', (ms, words) => {
    expect(decisionHeader([entry('a', 'm', { state: 'tripped', reason: 'quota', left_ms: ms })], false)).toBe(
      `a/m(tripped: quota, ${words})`,
    );
  });

  it('each non-ASCII character of an id is one ?', () => {
    const value = decisionHeader([entry('sitz-ü', 'modèle-🙂-x')], false);
    expect(value).toBe('sitz-?/mod?le-?-x(healthy)');
    expect(value).toMatch(/^[\x20-\x7e]*$/);
  });

  it('control characters, which no header may carry, are ? too', () => {
    expect(decisionHeader([entry('a', 'm\tx\ny')], false)).toBe('a/m?x?y(healthy)');
  });
});

describe('the 1024-byte limit', () => {
  /** Entries `sNN/` + model padded so each entry is exactly `size` bytes. */
  function entries(count: number, size: number): DecisionChainEntry[] {
    const fixed = 'sNN/'.length + '(healthy)'.length;
    return Array.from({ length: count }, (_, i) => entry(`s${String(i).padStart(2, '0')}`, 'm'.repeat(size - fixed)));
  }

  it('a value of exactly 1024 bytes is kept whole', () => {
    // 4 entries of 125 bytes, 4 of 124, and 7 arrows of 4 bytes: 1024
    const chain = [...entries(4, 125), ...entries(4, 124).map((e, i) => ({ ...e, seat: `t${i}0` }))];
    const value = decisionHeader(chain, false);
    expect(value.length).toBe(1024);
    expect(value).not.toContain('...');
  });

  it('past 1024 bytes: the whole entries that fit with " -> ..." after them', () => {
    const chain = entries(40, 60);
    const value = decisionHeader(chain, false);
    expect(value.length).toBeLessThanOrEqual(MAX_DECISION_BYTES);
    expect(value.endsWith(' -> ...')).toBe(true);
    const kept = value.slice(0, -' -> ...'.length).split(' -> ');
    // 60-byte entries: k entries take 64k − 4 bytes; with the 7-byte marker 64k + 3 ≤ 1024 → k = 15
    expect(kept.length).toBe(15);
    kept.forEach((words, i) => {
      expect(words).toBe(`s${String(i).padStart(2, '0')}/${'m'.repeat(60 - 13)}(healthy)`);
    });
  });

  it('one byte over: the last entry gives way to the marker', () => {
    const chain = [...entries(4, 125), ...entries(4, 124).map((e, i) => ({ ...e, seat: `t${i}0` }))];
    chain[7] = { ...chain[7]!, model: `${chain[7]!.model}m` };
    const value = decisionHeader(chain, false);
    expect(value.length).toBeLessThanOrEqual(1024);
    expect(value.split(' -> ')).toHaveLength(8);
    expect(value.endsWith(' -> ...')).toBe(true);
  });

  it('a first entry too long to fit beside the marker leaves the marker alone', () => {
    expect(decisionHeader([entry('a', 'm'.repeat(2000)), entry('b', 'm')], false)).toBe('...');
  });
});
