import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../src/signals/evidence.js';
import { engine, sig } from './engine-fixture.js';

/**
 * What recording one answer says it did (a retry must never
 * retry a target the failed answer just tripped with a credit, quota, key or
 * model-errors breaker). Only this answer's own trip, re-trip or extension
 * counts; a breaker that already stood and was left as it was does not.
 */

const seats = [{ id: 'a', base: 'https://api.example' }];
const chain = [{ seat: 'a', model: 'opus' }];

function recordOnce(e: ReturnType<typeof engine>, evidence: Evidence): boolean {
  const p = e.plan({ pinnedIndex: 0 });
  const { tripped } = e.inf.record(p, e.find(p, 'a', 'opus'), evidence);
  e.inf.finish(p);
  return tripped;
}

describe('what recording an answer did', () => {
  it('a credit answer trips once; the same answer while the breaker stands trips nothing new', () => {
    const e = engine(seats, chain);
    const credit: Evidence = { class: 'credit', signal: sig(402) };
    expect(recordOnce(e, credit)).toBe(true);
    expect(recordOnce(e, credit)).toBe(false);
  });

  it('model errors: only the answer that reaches the threshold trips; later ones against the open breaker do not', () => {
    const e = engine(seats, chain, { trip_threshold: 2 });
    const failure: Evidence = { class: 'model_error', signal: sig(500) };
    expect(recordOnce(e, failure)).toBe(false);
    expect(recordOnce(e, failure)).toBe(true);
    expect(recordOnce(e, failure)).toBe(false);
  });

  it('a quota trips, a later reset extends it, the same reset again changes nothing', () => {
    const e = engine(seats, chain);
    const at = (ms: number): Evidence => ({ class: 'quota', cover: 'seat', resetAt: e.clock.now() + ms, signal: sig(429) });
    const first = at(60_000);
    expect(recordOnce(e, first)).toBe(true);
    expect(recordOnce(e, first)).toBe(false);
    expect(recordOnce(e, at(120_000))).toBe(true);
  });

  it('a rate limit is never such a trip: the retry waits past it', () => {
    const e = engine(seats, chain);
    expect(recordOnce(e, { class: 'rate_limit', waitMs: 5000, signal: sig(429) })).toBe(false);
  });

  it('a failed probe re-trips the breaker it claimed, whatever the failure', () => {
    const e = engine(seats, chain, { trip_threshold: 1 });
    expect(recordOnce(e, { class: 'model_error', signal: sig(500) })).toBe(true);
    e.inf.probe('a', 'opus');
    const probe = e.plan();
    expect(probe.targets[0]).toMatchObject({ seat: 'a', state: 'probe' });
    const { tripped } = e.inf.record(probe, e.find(probe, 'a', 'opus'), { class: 'rate_limit', waitMs: 1000, signal: sig(429) });
    expect(tripped).toBe(true);
  });
});
