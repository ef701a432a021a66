import { type Breaker, parseStateFile, type StateFile } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { InfluenceEngine } from '../../src/breaker/engine.js';
import { applyRestoration, captureState, type Restoration, restoration } from '../../src/breaker/saved-state.js';
import { OK } from '../../src/signals/evidence.js';
import { type Engine, engine, sig, transitions } from './engine-fixture.js';

/**
 * The state file's rules,
 * pure: an engine's state is captured, goes through JSON and the file's
 * schema as it would on disk, and is restored into a fresh engine — the same
 * config or a changed one, at the same moment or later.
 */

// one and two share an upstream (a provider layer), far is elsewhere
const seats = [
  { id: 'one', base: 'https://api.anthropic.example' },
  { id: 'two', base: 'https://api.anthropic.example' },
  { id: 'far', base: 'https://other.example' },
  { id: 'cut', base: 'https://other.example' },
];
const refs = [
  { seat: 'one', model: 'sonnet' },
  { seat: 'two', model: 'sonnet' },
  { seat: 'one', model: 'opus' },
  { seat: 'far', model: 'sonnet' },
  { seat: 'far', model: 'haiku' },
  { seat: 'cut', model: 'haiku' },
];
const err = { class: 'model_error' as const, signal: sig(500) };
const PROVIDER = 'errors:provider:https://api.anthropic.example/sonnet';
const HOUR = 3_600_000;

const inf = (e: Engine) => e.inf as InfluenceEngine;

/** One breaker of every kind and scope, and streaks left over, at long cooldowns. */
function trippedEverything(): Engine {
  const e = engine(seats, refs, { cooldown_secs: 600, max_cooldown_secs: 900 });
  e.attempt('cut', 'haiku', { class: 'credit', signal: sig(402) });
  e.attempt('far', 'haiku', { class: 'key_rejected', signal: sig(401, 'authentication_error') });
  e.attempt('far', 'sonnet', { class: 'rate_limit', waitMs: 300_000, signal: sig(429) });
  e.attempt('far', 'sonnet', { class: 'quota', cover: 'seat', resetAt: e.clock.t + 5 * HOUR, signal: sig(429, 'usage_limit_reached') });
  e.attempt('one', 'opus', { class: 'quota', cover: 'model', resetAt: e.clock.t + 24 * HOUR, signal: sig(429) });
  // provider: three failures over two seats; one/sonnet is left with a streak of 2, two/sonnet of 1
  e.attempt('one', 'sonnet', err);
  e.attempt('two', 'sonnet', err);
  e.attempt('one', 'sonnet', err);
  // a target trip: three failures of one target on its own
  for (let i = 0; i < 3; i++) e.attempt('far', 'haiku', err);
  // a refused count on the credit breaker
  e.attempt('cut', 'haiku', { class: 'credit', signal: sig(402) });
  // the coalesced count announcements go out, so what was announced is what is live
  e.clock.advance(250);
  e.inf.fireTimers();
  return e;
}

/** Through JSON and the schema, as the file would carry it. */
function onDisk(e: Engine): StateFile {
  const parsed = parseStateFile(JSON.parse(JSON.stringify(captureState(inf(e).state, 'host:1'))));
  if (!parsed.ok) throw new Error(`a captured state must parse: ${parsed.why}`);
  return parsed.state;
}

function restoreInto(e: Engine, saved: StateFile): Restoration {
  const { state } = inf(e);
  const r = restoration(saved, state.topology, state.limits, state.clock.now());
  applyRestoration(inf(e), r);
  return r;
}

const keys = (bs: readonly Breaker[]) => bs.map((b) => b.key);

describe('capture and restore', () => {
  it('every kind and scope comes back exactly as it was saved, counts, signals and streaks included', () => {
    const before = trippedEverything();
    const saved = onDisk(before);
    expect(keys(saved.breakers)).toEqual([
      'credit:cut',
      'key_rejected:far',
      'rate_limit:far',
      'quota:far',
      'quota:one/opus',
      PROVIDER,
      'errors:far/haiku',
    ]);
    expect(saved.breakers[0]).toMatchObject({ refused_count: 1, signal: sig(402) });
    const after = engine(seats, refs, { cooldown_secs: 600, max_cooldown_secs: 900 });
    after.clock.t = before.clock.t;
    const r = restoreInto(after, saved);
    expect(r.dropped).toEqual([]);
    expect(after.inf.breakers()).toEqual(before.inf.breakers());
    expect(after.inf.seats()).toEqual(before.inf.seats());
    expect(after.inf.routes()).toEqual(before.inf.routes());
    expect(after.events.map((x) => [x.action, x.key, x.reason])).toEqual(
      keys(saved.breakers).map((k) => ['tripped', k, 'restored from state file']),
    );
    // the deadlines are the engine's own again: the next one comes due on time
    expect(after.inf.nextTimerAt()).toBe(before.inf.nextTimerAt());
  });

  it('saves every non-zero streak and none that has run out or was reset', () => {
    const e = trippedEverything();
    const at = e.clock.t - 250; // the failures, before the count announcements went out
    const streaks = onDisk(e).streaks;
    expect(streaks).toContainEqual({ scope: 'model', seat: 'one', model: 'sonnet', count: 2, last_failure_at: at });
    expect(streaks).toContainEqual({ scope: 'model', seat: 'two', model: 'sonnet', count: 1, last_failure_at: at });
    expect(streaks).toContainEqual({
      scope: 'provider',
      upstream: 'https://api.anthropic.example',
      model: 'sonnet',
      count: 3,
      last_failure_at: at,
      seats: ['one', 'two'],
    });
    e.attempt('one', 'sonnet', OK); // resets one/sonnet and the provider streak
    expect(onDisk(e).streaks.map((s) => (s.scope === 'model' ? `${s.seat}/${s.model}` : `${s.upstream} ${s.seats}`))).toEqual([
      'two/sonnet',
      'far/haiku',
      'https://other.example far',
    ]);
    e.clock.advance(300_001); // past window_secs
    expect(onDisk(e).streaks).toEqual([]);
  });

  it('a restored streak goes on counting: the next failures trip as if there had been no restart', () => {
    const before = engine(seats, refs);
    before.attempt('one', 'sonnet', err);
    before.attempt('two', 'sonnet', err);
    const saved = onDisk(before);
    const after = engine(seats, refs);
    after.clock.t = before.clock.t + 1000;
    restoreInto(after, saved);
    after.attempt('one', 'sonnet', err);
    // the provider streak had two seats and reaches 3: the provider layer trips
    expect(transitions(after.events)).toEqual([`tripped ${PROVIDER}`]);
    after.attempt('one', 'sonnet', err);
    expect(after.breaker('errors:one/sonnet')).toBeDefined();
  });
});

describe('what the rules drop', () => {
  it('breakers and streaks of seats and targets no longer configured; a provider breaker while a target of its model remains', () => {
    const saved = onDisk(trippedEverything());
    // seat cut is gone, far/haiku is no longer routed, two/sonnet is gone but one/sonnet remains
    const after = engine(
      seats.filter((s) => s.id !== 'cut'),
      refs.filter((t) => t.seat !== 'cut' && !(t.seat === 'far' && t.model === 'haiku') && t.seat !== 'two'),
      { cooldown_secs: 600, max_cooldown_secs: 900 },
    );
    after.clock.t = saved.saved_at;
    const r = restoreInto(after, saved);
    expect(r.dropped).toEqual([
      { what: 'credit:cut', why: 'not configured' },
      { what: 'errors:far/haiku', why: 'not configured' },
      { what: 'two/sonnet', why: 'not configured' },
      { what: 'far/haiku', why: 'not configured' },
      { what: 'https://other.example/haiku', why: 'not configured' },
    ]);
    expect(keys(after.inf.breakers())).toEqual(['key_rejected:far', 'rate_limit:far', 'quota:far', 'quota:one/opus', PROVIDER]);
  });

  it('a provider breaker goes when no configured target of its upstream and model is left', () => {
    const saved = onDisk(trippedEverything());
    const after = engine(seats, [
      { seat: 'one', model: 'opus' },
      { seat: 'far', model: 'sonnet' }, // sonnet, but on another upstream
    ]);
    after.clock.t = saved.saved_at;
    const r = restoreInto(after, saved);
    expect(r.dropped).toContainEqual({ what: PROVIDER, why: 'not configured' });
    expect(r.dropped).toContainEqual({ what: 'https://api.anthropic.example/sonnet', why: 'not configured' });
    expect(keys(after.inf.breakers())).not.toContain(PROVIDER);
  });

  it('later: a passed rate limit is dropped, breakers past their time come back probe-ready, the others open', () => {
    const saved = onDisk(trippedEverything());
    const after = engine(seats, refs, { cooldown_secs: 600, max_cooldown_secs: 900 });
    after.clock.t = saved.saved_at + 2 * HOUR; // past every cooldown and the rate limit, before both quota resets
    const r = restoreInto(after, saved);
    expect(r.dropped.filter((d) => d.why !== 'window passed')).toEqual([{ what: 'rate_limit:far', why: 'deadline passed' }]);
    const phases = Object.fromEntries(after.inf.breakers().map((b) => [b.key, b.phase]));
    expect(phases).toEqual({
      'credit:cut': 'probe_ready',
      'key_rejected:far': 'probe_ready',
      'quota:far': 'open',
      'quota:one/opus': 'open',
      [PROVIDER]: 'probe_ready',
      'errors:far/haiku': 'probe_ready',
    });
    expect(transitions(after.events)).toEqual([
      'probe_ready credit:cut',
      'probe_ready key_rejected:far',
      'tripped quota:far',
      'tripped quota:one/opus',
      `probe_ready ${PROVIDER}`,
      'probe_ready errors:far/haiku',
    ]);
    // and a probe-ready one is probed by the next request, as after a cooldown
    const p = after.plan();
    expect(after.find(p, 'cut', 'haiku').state).toBe('probe');
    // the streaks' window (300 s) has passed too: all five are dropped
    expect(r.streaks).toEqual([]);
    expect(r.dropped.filter((d) => d.why === 'window passed')).toHaveLength(5);
  });

  it('a probe claim never comes back: a breaker saved probing is probe-ready once its time passed, else open', () => {
    const before = engine(seats, refs, { cooldown_secs: 10 });
    before.attempt('cut', 'haiku', { class: 'credit', signal: sig(402) });
    before.clock.advance(10_000);
    const inFlight = before.plan(); // claims the probe and never finishes: the process dies
    expect(before.find(inFlight, 'cut', 'haiku').state).toBe('probe');
    const saved = onDisk(before);
    expect(saved.breakers[0]).toMatchObject({ phase: 'probing', claimed_at: before.clock.t });

    const after = engine(seats, refs, { cooldown_secs: 10 });
    after.clock.t = before.clock.t;
    restoreInto(after, saved);
    expect(after.breaker('credit:cut')).toMatchObject({ phase: 'probe_ready', claimed_at: null });
    const p = after.plan();
    expect(after.find(p, 'cut', 'haiku').state).toBe('probe');
    after.inf.record(p, after.find(p, 'cut', 'haiku'), OK);
    expect(after.breaker('credit:cut')).toBeUndefined();

    // a clock that reads earlier than the probe-ready time (set back across the restart): open until then
    const early = engine(seats, refs, { cooldown_secs: 10 });
    early.clock.t = saved.breakers[0]!.until! - 5000;
    restoreInto(early, saved);
    expect(early.breaker('credit:cut')).toMatchObject({ phase: 'open', claimed_at: null });
    expect(early.inf.nextTimerAt()).toBe(saved.breakers[0]!.until);
  });

  it('a wait longer than the current config allows is cut to it', () => {
    const saved = onDisk(trippedEverything());
    const after = engine(seats, refs, { cooldown_secs: 60, max_cooldown_secs: 120, max_quota_secs: 3600 });
    const now = saved.saved_at + 1000;
    after.clock.t = now;
    restoreInto(after, saved);
    expect(after.breaker('credit:cut')).toMatchObject({ until: now + 120_000, cooldown_ms: 120_000 });
    expect(after.breaker('rate_limit:far')).toMatchObject({ until: now + 120_000, cooldown_ms: 120_000 });
    // the provider's own stated reset is what it said: only the wait is cut
    const statedReset = saved.breakers.find((b) => b.key === 'quota:far')!.reset_at;
    expect(statedReset).toBe(saved.saved_at - 250 + 5 * HOUR);
    expect(after.breaker('quota:far')).toMatchObject({ until: now + HOUR, reset_at: statedReset });
  });
});

describe('the file format', () => {
  const good = () => onDisk(trippedEverything());

  it('refuses what no daemon writes, naming where', () => {
    const cases: Array<[string, (f: Record<string, unknown>) => unknown, string]> = [
      ['a newer version', (f) => ({ ...f, version: 2 }), 'format version 2; this daemon reads version 1'],
      ['no version', ({ version: _, ...f }) => f, 'version: '],
      ['an unknown field', (f) => ({ ...f, extra: 1 }), 'the document: '],
      ['a bad phase', (f) => withBreaker(f, { phase: 'half_open' }), 'breakers.0.phase: '],
      ['a key that is not its breaker', (f) => withBreaker(f, { key: 'credit:other' }), 'breakers.0.key: does not match'],
      ['a kind of the wrong scope', (f) => withBreaker(f, { kind: 'errors' }), 'breakers.0.kind: a errors breaker cannot have scope seat'],
      ['a seat breaker naming a model', (f) => withBreaker(f, { model: 'x' }), 'breakers.0.scope: a seat breaker names a seat'],
      ['a negative count', (f) => withBreaker(f, { refused_count: -1 }), 'breakers.0.refused_count: '],
      [
        'a key twice',
        (f) => ({ ...f, breakers: [...(f.breakers as unknown[]), (f.breakers as unknown[])[0]] }),
        'breakers.7.key: "credit:cut" appears twice',
      ],
      [
        'a streak of zero',
        (f) => ({ ...f, streaks: [{ scope: 'model', seat: 'a', model: 'm', count: 0, last_failure_at: 1 }] }),
        'streaks.0.count: ',
      ],
      ['an array', () => [], 'the document: '],
    ];
    for (const [what, change, why] of cases) {
      const parsed = parseStateFile(change(good() as unknown as Record<string, unknown>));
      expect(parsed.ok, what).toBe(false);
      if (!parsed.ok) expect(parsed.why, what).toContain(why);
    }
    expect(parseStateFile(good()).ok).toBe(true);
  });
});

function withBreaker(f: Record<string, unknown>, change: Record<string, unknown>): unknown {
  const [first, ...rest] = f.breakers as Array<Record<string, unknown>>;
  return { ...f, breakers: [{ ...first, ...change }, ...rest] };
}
