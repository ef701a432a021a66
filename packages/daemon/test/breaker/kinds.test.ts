import { describe, expect, it } from 'vitest';
import { OK } from '../../src/signals/evidence.js';
import { engine, sig, transitions } from './engine-fixture.js';

const seats = [
  { id: 'a', base: 'https://one.example' },
  { id: 'b', base: 'https://two.example' },
];
const refs = [
  { seat: 'a', model: 'opus' },
  { seat: 'a', model: 'sonnet' },
  { seat: 'b', model: 'sonnet' },
];

describe('quota breakers', () => {
  it('a seat-wide quota holds the seat until the stated reset, then one probe; a success on the seat clears it', () => {
    const e = engine(seats, refs);
    const resetAt = e.clock.t + 2 * 3_600_000;
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt, signal: sig(429, 'usage_limit_reached') });
    expect(e.breaker('quota:a')).toMatchObject({ kind: 'quota', scope: 'seat', phase: 'open', until: resetAt, reset_at: resetAt });
    expect(e.names(e.plan())).toEqual(['b/sonnet', 'a/opus', 'a/sonnet']);
    e.clock.advance(2 * 3_600_000);
    e.inf.fireTimers();
    expect(e.breaker('quota:a')?.phase).toBe('probe_ready');
    const first = e.plan();
    const second = e.plan();
    expect(e.find(first, 'a', 'opus').state).toBe('probe');
    expect(e.find(second, 'a', 'opus').state).toBe('tripped');
    e.inf.record(first, e.find(first, 'a', 'opus'), OK);
    e.inf.finish(first);
    e.inf.finish(second);
    expect(e.breaker('quota:a')).toBeUndefined();
    expect(transitions(e.events)).toEqual(['tripped quota:a', 'probe_ready quota:a', 'probe_claimed quota:a', 'cleared quota:a']);
  });

  it('the deadline is the stated reset to the ms, however much time recording itself takes', () => {
    const e = engine(seats, refs);
    const resetAt = e.clock.t + 3_600_000;
    // every read of the clock is a millisecond later: the wait and the deadline must come from one reading
    e.clock.now = () => e.clock.t++;
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt, signal: sig(429) });
    expect(e.breaker('quota:a')).toMatchObject({ until: resetAt, reset_at: resetAt });
  });

  it('a per-model quota sidelines only that target; its sibling on the seat stays first', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'opus', { class: 'quota', cover: 'model', resetAt: e.clock.t + 86_400_000, signal: sig(429) });
    expect(e.breaker('quota:a/opus')).toMatchObject({ scope: 'model', seat: 'a', model: 'opus' });
    expect(e.names(e.plan())).toEqual(['a/sonnet', 'b/sonnet', 'a/opus']);
  });

  it('the deadline is clamped to [1 s, max_quota_secs] and only ever extends', () => {
    const e = engine(seats, refs, { max_quota_secs: 3600 });
    const t0 = e.clock.t;
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: t0 + 100 * 86_400_000, signal: sig(429) });
    expect(e.breaker('quota:a')?.until).toBe(t0 + 3_600_000);
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: t0 + 60_000, signal: sig(429) }); // earlier: ignored
    expect(e.breaker('quota:a')?.until).toBe(t0 + 3_600_000);
    const e2 = engine(seats, refs);
    e2.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: e2.clock.t - 5000, signal: sig(429) }); // in the past
    expect(e2.breaker('quota:a')?.until).toBe(e2.clock.t + 1000);
    e2.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: e2.clock.t + 10_000, signal: sig(429) });
    expect(e2.breaker('quota:a')?.until).toBe(e2.clock.t + 10_000);
    expect(transitions(e2.events)).toEqual(['tripped quota:a', 'extended quota:a']);
  });

  it('a failed probe takes a quota answer’s new reset, and any other failure the doubled cooldown', () => {
    const e = engine(seats, refs, { cooldown_secs: 60 });
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: e.clock.t + 5000, signal: sig(429) });
    e.clock.advance(5000);
    const nextReset = e.clock.t + 7_200_000;
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: nextReset, signal: sig(429) });
    expect(e.breaker('quota:a')).toMatchObject({ phase: 'open', failed_probes: 1, until: nextReset, reset_at: nextReset });
    e.clock.advance(7_200_000);
    e.attempt('a', 'opus', { class: 'model_error', signal: sig(500) });
    expect(e.breaker('quota:a')).toMatchObject({ failed_probes: 2, cooldown_ms: 240_000, until: e.clock.t + 240_000 });
  });

  it('a success on the target clears a target quota; a success on another model of the seat does not', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'opus', { class: 'quota', cover: 'model', resetAt: e.clock.t + 86_400_000, signal: sig(429) });
    e.attempt('a', 'sonnet', OK);
    expect(e.breaker('quota:a/opus')).toMatchObject({ phase: 'open' });
    // a success on that very target (a fail-open attempt, say: not a probe) speaks for it
    e.attempt('a', 'opus', OK);
    expect(e.breaker('quota:a/opus')).toBeUndefined();
    expect(transitions(e.events)).toEqual(['tripped quota:a/opus', 'cleared quota:a/opus']);
    expect(e.events.at(-1)).toMatchObject({ action: 'cleared', reason: 'success' });
  });

  it('quota and rate limit are independent: a success clears the quota, never the rate limit', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'opus', { class: 'rate_limit', waitMs: 30_000, signal: sig(429) });
    e.attempt('a', 'opus', { class: 'quota', cover: 'seat', resetAt: e.clock.t + 60_000, signal: sig(429) });
    e.attempt('a', 'sonnet', OK);
    expect(e.inf.breakers().map((b) => b.key)).toEqual(['rate_limit:a']);
  });
});

describe('key_rejected', () => {
  it('trips the seat like credit: credit cooldown, one probe, a success on the seat clears it', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'opus', { class: 'key_rejected', signal: sig(401, 'authentication_error') });
    expect(e.breaker('key_rejected:a')).toMatchObject({
      kind: 'key_rejected',
      scope: 'seat',
      cooldown_ms: 10_000,
      signal: sig(401, 'authentication_error'),
    });
    expect(e.names(e.plan())).toEqual(['b/sonnet', 'a/opus', 'a/sonnet']);
    e.clock.advance(10_000);
    const probe = e.plan();
    expect(e.find(probe, 'a', 'opus').state).toBe('probe');
    e.inf.record(probe, e.find(probe, 'a', 'opus'), { class: 'key_rejected', signal: sig(403) });
    e.inf.finish(probe);
    expect(e.breaker('key_rejected:a')).toMatchObject({ failed_probes: 1, cooldown_ms: 20_000 });
    e.attempt('a', 'sonnet', OK);
    expect(e.inf.breakers()).toEqual([]);
  });

  it('with trip_on_rejected_key: false a 401 is not evidence: nothing trips, a probe claim is released', () => {
    const e = engine(seats, refs, { trip_on_rejected_key: false, cooldown_secs: 10 });
    for (let i = 0; i < 3; i++) e.attempt('a', 'opus', { class: 'key_rejected', signal: sig(401) });
    expect(e.inf.breakers()).toEqual([]);
    e.attempt('a', 'opus', { class: 'credit', signal: sig(402) });
    e.clock.advance(10_000);
    const probe = e.plan();
    e.inf.record(probe, e.find(probe, 'a', 'opus'), { class: 'key_rejected', signal: sig(401) });
    expect(e.breaker('credit:a')).toMatchObject({ phase: 'probe_ready', failed_probes: 0 });
  });
});

describe('request-class evidence', () => {
  it('a refusal of this request trips nothing', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    for (let i = 0; i < 5; i++) e.attempt('a', 'opus', { class: 'request', signal: sig(429) });
    expect(e.inf.breakers()).toEqual([]);
  });

  it('answering a probe, it gives no verdict: the claim is released and the next request may probe', () => {
    const e = engine(seats, refs, { cooldown_secs: 10 });
    e.attempt('a', 'opus', { class: 'credit', signal: sig(402) });
    e.clock.advance(10_000);
    const probe = e.plan();
    expect(e.find(probe, 'a', 'opus').state).toBe('probe');
    expect(e.breaker('credit:a')?.claimed_at).not.toBeNull();
    // while it is claimed, no other request probes
    const meanwhile = e.plan();
    expect(e.find(meanwhile, 'a', 'opus').state).toBe('tripped');
    e.inf.finish(meanwhile);

    e.inf.record(probe, e.find(probe, 'a', 'opus'), { class: 'request', signal: sig(429) });
    expect(e.breaker('credit:a')).toMatchObject({ phase: 'probe_ready', failed_probes: 0, cooldown_ms: 10_000, claimed_at: null });
    expect(transitions(e.events).at(-1)).toBe('probe_ready credit:a');
    e.inf.finish(probe);

    const next = e.plan();
    expect(e.find(next, 'a', 'opus').state).toBe('probe');
  });
});

describe('pins', () => {
  it('a pinned target is tried first even while its breaker is open; the rest follow in the usual order', () => {
    const e = engine(seats, refs);
    e.attempt('a', 'opus', { class: 'credit', signal: sig(402) });
    const p = e.plan({ pinnedIndex: 1 });
    expect(e.names(p)).toEqual(['a/sonnet', 'b/sonnet', 'a/opus']);
    expect(e.find(p, 'a', 'sonnet')).toMatchObject({ pinned: true, state: 'tripped', reason: 'credit' });
  });
});
