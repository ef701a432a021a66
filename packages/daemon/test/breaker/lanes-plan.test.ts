import { describe, expect, it } from 'vitest';
import { engine, sig } from './engine-fixture.js';

const seats = [
  { id: 'a', base: 'https://a.example' },
  { id: 'b', base: 'https://b.example' },
];
const refs = [
  { seat: 'a', model: 'm' },
  { seat: 'b', model: 'm' },
];
const credit = { class: 'credit' as const, signal: sig(402) };

describe('background plans', () => {
  it('only healthy targets, never a probe, never fail-open', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'm', credit);
    expect(e.names(e.plan({ lane: 'background' }))).toEqual(['b/m']);
    e.clock.advance(10_000);
    const bg = e.plan({ lane: 'background' });
    expect(e.names(bg)).toEqual(['b/m']);
    expect(bg.claims).toEqual([]);
    expect(e.breaker('credit:a')?.phase).toBe('probe_ready');
  });

  it('nothing routable: no targets, why each was held back, and the breakers count it as skipped', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'm', credit);
    e.attempt('b', 'm', { class: 'rate_limit', waitMs: 4000, signal: sig(429) });
    const bg = e.plan({ lane: 'background' });
    expect(bg.targets).toEqual([]);
    expect(bg.heldBack).toEqual([
      { seat: 'a', model: 'm', reason: 'credit', until: e.clock.t + 10_000, reserveUntil: null, routableAt: e.clock.t + 10_000 },
      { seat: 'b', model: 'm', reason: 'rate_limit', until: e.clock.t + 4000, reserveUntil: null, routableAt: e.clock.t + 4000 },
    ]);
    e.inf.countSkipped(bg);
    expect(e.inf.breakers().map((b) => b.skipped_count)).toEqual([1, 1]);
    expect(e.events.filter((x) => x.action === 'skipped').map((x) => x.key)).toEqual(['credit:a', 'rate_limit:b']);
  });

  it('a reserve holds a healthy seat back for background work only', () => {
    const e = engine(seats, refs);
    const reserveUntil = (seat: string) => (seat === 'a' ? e.clock.t + 60_000 : null);
    expect(e.names(e.plan({ lane: 'background', reserveUntil }))).toEqual(['b/m']);
    expect(e.names(e.plan({ lane: 'foreground', reserveUntil }))).toEqual(['a/m', 'b/m']);
  });

  it('a target both tripped and above its reserve is routable again only when both have passed', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'm', credit);
    e.attempt('b', 'm', credit);
    // a: credit for 10 s, reserve for 60 s → 60 s; b: credit for 10 s, reserve for 5 s → 10 s
    const reserveUntil = (seat: string) => e.clock.t + (seat === 'a' ? 60_000 : 5000);
    const bg = e.plan({ lane: 'background', reserveUntil });
    expect(bg.heldBack).toEqual([
      {
        seat: 'a',
        model: 'm',
        reason: 'credit',
        until: e.clock.t + 10_000,
        reserveUntil: e.clock.t + 60_000,
        routableAt: e.clock.t + 60_000,
      },
      {
        seat: 'b',
        model: 'm',
        reason: 'credit',
        until: e.clock.t + 10_000,
        reserveUntil: e.clock.t + 5000,
        routableAt: e.clock.t + 10_000,
      },
    ]);
  });
});
