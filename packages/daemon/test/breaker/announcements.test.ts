import { applyBreakerEvent, type Breaker } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { COUNT_EVENT_WINDOW_MS } from '../../src/breaker/table.js';
import { OK } from '../../src/signals/evidence.js';
import { engine, sig } from './engine-fixture.js';

const seats = [
  { id: 'a', base: 'https://a.example' },
  { id: 'b', base: 'https://b.example' },
];
const refs = [
  { seat: 'a', model: 'm' },
  { seat: 'b', model: 'm' },
];
const credit = { class: 'credit' as const, signal: sig(402, 'billing_error') };

describe('breaker events carry the whole breaker', () => {
  it('every event has the key and the breaker after the change, null when it ended', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'm', credit);
    e.clock.advance(10_000);
    e.inf.fireTimers();
    e.attempt('a', 'm', OK);
    expect(e.events.map((x) => [x.action, x.key, x.breaker?.phase ?? null])).toEqual([
      ['tripped', 'credit:a', 'open'],
      ['probe_ready', 'credit:a', 'probe_ready'],
      ['probe_claimed', 'credit:a', 'probing'],
      ['cleared', 'credit:a', null],
    ]);
    expect(e.events[0]).toMatchObject({ scope: 'seat_credit', seat: 'a', model: null, signal: sig(402, 'billing_error') });
    expect(e.events[0]!.breaker).toMatchObject({
      since: e.clock.t - 10_000,
      until: e.clock.t,
      cooldown_ms: 10_000,
      signal: sig(402, 'billing_error'),
    });
    // until keeps the probe-ready time that passed while probing
    expect(e.events[2]!.breaker).toMatchObject({ until: e.clock.t, claimed_at: e.clock.t });
  });

  it('a rate-limit deadline that passes is a cleared event with reason "deadline passed"', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'm', { class: 'rate_limit', waitMs: 3000, signal: sig(429) });
    e.clock.advance(3000);
    e.inf.fireTimers();
    expect(e.events.at(-1)).toMatchObject({ action: 'cleared', key: 'rate_limit:a', reason: 'deadline passed', breaker: null });
  });
});

describe('refused counts (coalesced)', () => {
  it('the first change goes out at once; later ones within 250 ms go out once at the window’s end', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit); // refused 1: at once
    const refused = () => e.events.filter((x) => x.action === 'refused');
    expect(refused().map((x) => x.breaker?.refused_count)).toEqual([1]);
    e.clock.advance(100);
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit);
    expect(refused()).toHaveLength(1);
    expect(e.inf.nextTimerAt()).toBe(e.clock.t - 100 + COUNT_EVENT_WINDOW_MS);
    e.clock.advance(COUNT_EVENT_WINDOW_MS - 100);
    e.inf.fireTimers();
    expect(refused().map((x) => x.breaker?.refused_count)).toEqual([1, 3]);
  });

  it('a pending count of a breaker that ends meanwhile is dropped: its end is the last word', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit); // pending
    e.attempt('a', 'm', OK);
    e.clock.advance(COUNT_EVENT_WINDOW_MS);
    e.inf.fireTimers();
    expect(e.events.map((x) => x.action)).toEqual(['tripped', 'refused', 'cleared']);
  });

  it('what a snapshot shows is what the events announced, counts included', () => {
    const e = engine(seats, refs);
    const replay = new Map<string, Breaker>();
    const check = () => {
      for (const event of e.events.splice(0)) applyBreakerEvent(replay, { ...event, seq: 0, ts: 0 });
      expect([...replay.values()]).toEqual(e.inf.breakers());
    };
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', credit); // pending: the snapshot still shows refused 1
    check();
    e.clock.advance(COUNT_EVENT_WINDOW_MS);
    e.inf.fireTimers();
    check();
    expect(e.inf.breakers()[0]?.refused_count).toBe(2);
  });
});

describe('the probe command', () => {
  it('makes open breakers of a seat probe-ready now; rate limits and ready ones are left alone', () => {
    const e = engine(seats, refs, { cooldown_secs: 600 });
    e.attempt('a', 'm', credit);
    e.attempt('a', 'm', { class: 'rate_limit', waitMs: 60_000, signal: sig(429) });
    for (let i = 0; i < 3; i++) e.attempt('b', 'm', { class: 'model_error', signal: sig(503) });
    expect(e.inf.probe('a')).toEqual({ ok: true, made_ready: 1 });
    expect(e.breaker('credit:a')).toMatchObject({ phase: 'probe_ready', until: e.clock.t });
    expect(e.events.at(-1)).toMatchObject({ action: 'probe_ready', reason: 'probe now' });
    expect(e.inf.probe('a')).toEqual({ ok: true, made_ready: 0 });
    expect(e.inf.probe('b', 'm')).toEqual({ ok: true, made_ready: 1 });
    expect(e.inf.probe('zz')).toMatchObject({ ok: false, code: 'unknown_seat' });
    expect(e.inf.probe('b', 'nope')).toMatchObject({ ok: false, code: 'unknown_target' });
    const disabled = engine(seats, refs, { enabled: false });
    expect(disabled.inf.probe('a')).toMatchObject({ ok: false, code: 'influence_disabled' });
  });
});
