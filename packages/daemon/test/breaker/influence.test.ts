import { describe, expect, it } from 'vitest';
import type { InfluenceConfig, RouteConfig, SeatConfig } from '@routeplane/shared';
import { createInfluence } from '../../src/breaker/engine.js';
import { targetKeys } from '../../src/breaker/topology.js';
import { clampWait as clampRetryAfter } from '../../src/breaker/transitions.js';
import type { BreakerChange, Influence, Plan, PlanEntry, PlannedTarget } from '../../src/breaker/types.js';
import { OK, type Evidence } from '../../src/signals/evidence.js';

/** A hand-driven clock: tests move time, nothing sleeps. */
class FakeClock {
  constructor(public t = 1_000_000) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

const seats: SeatConfig[] = ['a', 'b', 'c'].map((id) => ({
  id,
  provider: 'openai',
  base_url: `http://127.0.0.1:1/${id}`,
  api_key_env: `KEY_${id.toUpperCase()}`,
  api_path: '/v1',
  headers: {},
  reserve_pct: 0,
  extra_usage: 'allow',
  price: null,
}));
const refs = [
  { seat: 'a', model: 'm1' },
  { seat: 'a', model: 'm2' },
  { seat: 'b', model: 'm1' },
  { seat: 'c', model: 'm1' },
];
const routes: RouteConfig[] = [
  {
    model: 'r',
    balance: 'ordered',
    lane: null,
    retry: null,
    chain: refs.map((t) => ({ ...t, weight: 1, cost_per_mtok: null, price: null })),
  },
];
/** The chain as the forwarder hands it to `plan()`. */
const chain: PlanEntry[] = refs.map((t, index) => ({ keys: targetKeys(t.seat, t.model, `http://127.0.0.1:1/${t.seat}`), index }));

// Evidence as the classifier gives it.
const sig = (status: number) => ({ status, type: null, code: null, header: null, message: null });
const credit: Evidence = { class: 'credit', signal: sig(402) };
const failure: Evidence = { class: 'model_error', signal: sig(500) };
const none: Evidence = { class: 'none', signal: sig(400) };
const rateLimit = (waitMs: number | null): Evidence => ({ class: 'rate_limit', waitMs, signal: sig(429) });

function setup(over: Partial<InfluenceConfig> = {}) {
  const clock = new FakeClock();
  const events: BreakerChange[] = [];
  const cfg: InfluenceConfig = {
    enabled: true,
    cooldown_secs: 60,
    max_cooldown_secs: 900,
    trip_threshold: 3,
    window_secs: 300,
    max_quota_secs: 604_800,
    trip_on_rejected_key: true,
    state_file: null,
    shared: null,
    ...over,
  };
  const inf = createInfluence(cfg, seats, routes, { clock, onChange: (e) => events.push(e) });
  return { clock, events, inf };
}

const names = (plan: Plan) => plan.targets.map((t) => `${t.seat}/${t.model}`);
const find = (plan: Plan, seat: string, model: string): PlannedTarget => {
  const t = plan.targets.find((x) => x.seat === seat && x.model === model);
  if (!t) throw new Error(`no ${seat}/${model} in plan`);
  return t;
};
/** One request: plan, record one outcome on one target, finish. */
function attempt(inf: Influence, seat: string, model: string, evidence: Evidence): Plan {
  const plan = planNow(inf);
  inf.record(plan, find(plan, seat, model), evidence);
  inf.finish(plan);
  return plan;
}
/** The memory store answers claims at once: a plan is never a promise here. */
function planNow(inf: Influence): Plan {
  const plan = inf.plan(chain);
  if (plan instanceof Promise) throw new Error('a memory-store plan must not wait');
  return plan;
}
/** State transitions, without the coalesced count announcements (tested on their own). */
const actions = (events: BreakerChange[]) =>
  events
    .filter((e) => e.action !== 'refused' && e.action !== 'skipped')
    .map((e) => `${e.action}:${e.scope}:${e.seat}${e.model ? '/' + e.model : ''}`);
const transitions = (events: BreakerChange[]) => events.filter((e) => e.action !== 'refused' && e.action !== 'skipped');

describe('influence breaker', () => {
  it('402 trips the whole seat on the first one: every model of the seat moves back', () => {
    const { inf, events } = setup();
    attempt(inf, 'a', 'm1', credit);
    expect(actions(events)).toEqual(['tripped:seat_credit:a']);
    const plan = planNow(inf);
    expect(names(plan)).toEqual(['b/m1', 'c/m1', 'a/m1', 'a/m2']);
    expect(find(plan, 'a', 'm2')).toMatchObject({ state: 'tripped', reason: 'credit' });
  });

  it('429 deprioritizes the seat until the Retry-After deadline, then routes again with no probe', () => {
    const { inf, clock, events } = setup();
    attempt(inf, 'a', 'm1', rateLimit(5000));
    expect(names(planNow(inf))).toEqual(['b/m1', 'c/m1', 'a/m1', 'a/m2']);
    clock.advance(5000);
    const plan = planNow(inf);
    expect(names(plan)).toEqual(['a/m1', 'a/m2', 'b/m1', 'c/m1']);
    expect(plan.targets.every((t) => t.state === 'healthy')).toBe(true);
    expect(actions(events).filter((a) => a.startsWith('probe'))).toEqual([]);
  });

  it('429 deadline is clamped to [1 s, max_cooldown_secs]: missing, zero, negative, garbage, huge', () => {
    expect(clampRetryAfter(null, 900_000)).toBe(1000);
    expect(clampRetryAfter(0, 900_000)).toBe(1000);
    expect(clampRetryAfter(-5, 900_000)).toBe(1000);
    expect(clampRetryAfter(Number.NaN, 900_000)).toBe(1000);
    expect(clampRetryAfter(250, 900_000)).toBe(1000);
    expect(clampRetryAfter(10 ** 12, 900_000)).toBe(900_000);
    const { inf, clock } = setup({ max_cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', rateLimit(10 ** 9));
    expect(inf.open()[0]).toMatchObject({ scope: 'seat_rate_limit', until: clock.t + 10_000 });
  });

  it('429 deadline only ever moves forward', () => {
    const { inf, clock, events } = setup();
    attempt(inf, 'a', 'm1', rateLimit(30_000));
    const first = clock.t + 30_000;
    clock.advance(1000);
    attempt(inf, 'a', 'm1', rateLimit(2000)); // earlier: ignored
    expect(inf.open()[0]?.until).toBe(first);
    attempt(inf, 'a', 'm1', rateLimit(60_000)); // later: extends
    expect(inf.open()[0]?.until).toBe(clock.t + 60_000);
    expect(actions(events)).toEqual(['tripped:seat_rate_limit:a', 'extended:seat_rate_limit:a']);
  });

  it('429 is not cleared by an unrelated success on the same seat', () => {
    const { inf } = setup();
    attempt(inf, 'a', 'm1', rateLimit(30_000));
    attempt(inf, 'a', 'm2', OK);
    expect(inf.open().map((o) => o.scope)).toEqual(['seat_rate_limit']);
  });

  it('429 and 402 states are independent: neither overwrites nor clears the other', () => {
    const { inf, clock } = setup({ cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'a', 'm1', rateLimit(60_000));
    expect(
      inf
        .open()
        .map((o) => o.scope)
        .sort(),
    ).toEqual(['seat_credit', 'seat_rate_limit']);
    // The rate limit outlives the credit cooldown; the credit breaker still stands.
    clock.advance(61_000);
    expect(inf.open().map((o) => o.scope)).toEqual(['seat_credit']);
    expect(inf.reset('a').ok).toBe(true);
    attempt(inf, 'a', 'm1', rateLimit(60_000));
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'b', 'm1', OK);
    expect(
      inf
        .open()
        .map((o) => o.scope)
        .sort(),
    ).toEqual(['seat_credit', 'seat_rate_limit']);
  });

  it('5xx/timeouts trip only that target after trip_threshold consecutive failures; its sibling stays healthy', () => {
    const { inf, events } = setup();
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    expect(transitions(events)).toEqual([]);
    attempt(inf, 'a', 'm1', failure);
    expect(actions(events)).toEqual(['tripped:model:a/m1']);
    const plan = planNow(inf);
    expect(names(plan)).toEqual(['a/m2', 'b/m1', 'c/m1', 'a/m1']);
    expect(find(plan, 'a', 'm2').state).toBe('healthy');
  });

  it('a failure more than window_secs after the previous one restarts the count', () => {
    const { inf, clock, events } = setup({ window_secs: 300 });
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    clock.advance(300_001);
    attempt(inf, 'a', 'm1', failure);
    expect(transitions(events)).toEqual([]);
    expect(inf.seats()[0]?.models[0]).toMatchObject({ model: 'm1', streak: 1, breaker: null });
  });

  it('a success on the target resets its streak', () => {
    const { inf, events } = setup();
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', OK);
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    expect(transitions(events)).toEqual([]);
  });

  it('deprioritizes, never removes: every target stays, configured order kept within each group', () => {
    const { inf } = setup();
    attempt(inf, 'b', 'm1', credit);
    attempt(inf, 'a', 'm1', credit);
    const plan = planNow(inf);
    expect(names(plan)).toEqual(['c/m1', 'a/m1', 'a/m2', 'b/m1']);
    expect(plan.targets).toHaveLength(chain.length);
  });

  it('fails open when every target is tripped: configured order, flagged', () => {
    const { inf } = setup();
    for (const s of ['a', 'b', 'c']) attempt(inf, s, 'm1', credit);
    const plan = planNow(inf);
    expect(plan.failOpen).toBe(true);
    expect(names(plan)).toEqual(refs.map((t) => `${t.seat}/${t.model}`));
    expect(plan.targets.every((t) => t.state === 'tripped')).toBe(true);
  });

  it('claims a single probe atomically once the cooldown elapsed; the probe goes at its configured position', () => {
    const { inf, clock, events } = setup({ cooldown_secs: 60 });
    attempt(inf, 'a', 'm1', credit);
    clock.advance(60_000);
    const first = planNow(inf);
    const second = planNow(inf);
    expect(names(first)).toEqual(['a/m1', 'b/m1', 'c/m1', 'a/m2']);
    expect(find(first, 'a', 'm1').state).toBe('probe');
    // The credit breaker is seat-wide: one claim covers the seat; a/m2 waits at the back.
    expect(find(first, 'a', 'm2').state).toBe('tripped');
    expect(names(second)).toEqual(['b/m1', 'c/m1', 'a/m1', 'a/m2']);
    expect(actions(events).filter((a) => a.startsWith('probe_claimed'))).toEqual(['probe_claimed:seat_credit:a']);
    inf.finish(first);
    inf.finish(second);
  });

  it('a successful probe clears the breaker and the target routes normally again', () => {
    const { inf, clock, events } = setup();
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    attempt(inf, 'a', 'm1', failure);
    clock.advance(60_000);
    attempt(inf, 'a', 'm1', OK);
    expect(actions(events).slice(-1)).toEqual(['cleared:model:a/m1']);
    expect(transitions(events).at(-1)?.reason).toBe('probe succeeded');
    expect(names(planNow(inf))).toEqual(['a/m1', 'a/m2', 'b/m1', 'c/m1']);
  });

  it('any success on a 402 seat clears the credit breaker, even on another model', () => {
    const { inf } = setup();
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'a', 'm2', OK);
    expect(inf.open()).toEqual([]);
  });

  it('a success from a request that began before the trip does not clear it (no flapping)', () => {
    const { inf, clock, events } = setup();
    const longStream = planNow(inf); // planned while everything was healthy
    clock.advance(1000);
    attempt(inf, 'a', 'm2', credit);
    clock.advance(1000);
    inf.record(longStream, find(longStream, 'a', 'm1'), OK);
    inf.finish(longStream);
    expect(actions(events)).toEqual(['tripped:seat_credit:a']);
    expect(inf.open().map((o) => o.scope)).toEqual(['seat_credit']);
  });

  it('a failed probe re-trips with the cooldown doubled, up to max_cooldown_secs', () => {
    const { inf, clock, events } = setup({ cooldown_secs: 60, max_cooldown_secs: 200 });
    attempt(inf, 'a', 'm1', credit);
    const cooldowns: number[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(inf.seats()[0]!.credit!.cooldown_ms);
      attempt(inf, 'a', 'm1', credit);
      cooldowns.push(inf.seats()[0]!.credit!.cooldown_ms);
    }
    expect(cooldowns).toEqual([120_000, 200_000, 200_000]);
    expect(inf.seats()[0]!.credit).toMatchObject({ failed_probes: 3, probe_ready_at: clock.t + 200_000, claimed_at: null });
    const failed = events.filter((e) => e.action === 'probe_failed');
    expect(failed.map((e) => [e.cooldown_ms, e.until])).toEqual([
      [120_000, clock.t - 200_000], // each probe fires the moment the previous cooldown ends
      [200_000, clock.t],
      [200_000, clock.t + 200_000],
    ]);
  });

  it('an unresolved probe allows another only after max_cooldown_secs', () => {
    const { inf, clock } = setup({ cooldown_secs: 10, max_cooldown_secs: 100 });
    attempt(inf, 'a', 'm1', credit);
    clock.advance(10_000);
    const hung = planNow(inf); // claims, never resolves
    expect(find(hung, 'a', 'm1').state).toBe('probe');
    clock.advance(99_999);
    expect(find(planNow(inf), 'a', 'm1').state).toBe('tripped');
    clock.advance(1);
    expect(find(planNow(inf), 'a', 'm1').state).toBe('probe');
  });

  it('4xx, auth demands and aborted streams are not evidence: nothing trips, a probe claim is released', () => {
    const { inf, clock, events } = setup({ cooldown_secs: 10 });
    for (let i = 0; i < 5; i++) attempt(inf, 'b', 'm1', none);
    expect(transitions(events)).toEqual([]);
    attempt(inf, 'a', 'm1', credit);
    clock.advance(10_000);
    const probe = planNow(inf);
    inf.record(probe, find(probe, 'a', 'm1'), none);
    expect(inf.seats()[0]!.credit).toMatchObject({ claimed_at: null, failed_probes: 0, cooldown_ms: 10_000 });
    expect(find(planNow(inf), 'a', 'm1').state).toBe('probe');
  });

  it('a claim is released when the request ends without reaching the probed target', () => {
    const { inf, clock } = setup({ cooldown_secs: 10 });
    attempt(inf, 'b', 'm1', credit);
    clock.advance(10_000);
    const plan = planNow(inf);
    expect(find(plan, 'b', 'm1').state).toBe('probe');
    inf.record(plan, find(plan, 'a', 'm1'), OK); // an earlier target served
    inf.finish(plan);
    expect(inf.seats()[1]!.credit!.claimed_at).toBeNull();
    expect(find(planNow(inf), 'b', 'm1').state).toBe('probe');
  });

  it('a seat under a rate-limit deadline is not probed until the deadline passes', () => {
    const { inf, clock } = setup({ cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'a', 'm1', rateLimit(30_000));
    clock.advance(10_000);
    expect(find(planNow(inf), 'a', 'm1').state).toBe('tripped');
    clock.advance(20_000);
    expect(find(planNow(inf), 'a', 'm1').state).toBe('probe');
  });

  it('a 429 during a probe fails the probe and also sets the rate-limit deadline', () => {
    const { inf, clock } = setup({ cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', credit);
    clock.advance(10_000);
    attempt(inf, 'a', 'm1', rateLimit(5000));
    const seat = inf.seats()[0]!;
    expect(seat.credit).toMatchObject({ failed_probes: 1, cooldown_ms: 20_000 });
    expect(seat.rate_limit).toMatchObject({ until: clock.t + 5000 });
  });

  it('fail-open attempts are not probes: a failure counts as refused and changes no cooldown; a success clears', () => {
    const { inf } = setup();
    for (const s of ['a', 'b', 'c']) attempt(inf, s, 'm1', credit);
    const plan = planNow(inf);
    expect(plan.failOpen).toBe(true);
    inf.record(plan, find(plan, 'a', 'm1'), credit);
    inf.finish(plan);
    expect(inf.seats()[0]!.credit).toMatchObject({ cooldown_ms: 60_000, failed_probes: 0, refused_count: 1 });
    attempt(inf, 'b', 'm1', OK);
    expect(inf.seats()[1]!.credit).toBeNull();
  });

  it('evidence on an already-tripped breaker outside a probe changes no cooldown and counts as refused', () => {
    const { inf, clock } = setup();
    for (let i = 0; i < 3; i++) attempt(inf, 'a', 'm1', failure);
    const before = inf.seats()[0]!.models[0]!.breaker!;
    clock.advance(1000);
    attempt(inf, 'a', 'm1', failure); // reached as a last resort
    expect(inf.seats()[0]!.models[0]!.breaker).toMatchObject({ ...before, refused_count: 1 });
  });

  it('announces probe_ready and rate-limit ends when their deadlines pass (timers, not lazily)', () => {
    const { inf, clock, events } = setup({ cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'b', 'm1', rateLimit(4000));
    expect(inf.nextTimerAt()).toBe(clock.t + 4000);
    clock.advance(4000);
    inf.fireTimers();
    expect(actions(events).at(-1)).toBe('cleared:seat_rate_limit:b');
    expect(inf.nextTimerAt()).toBe(clock.t + 6000);
    clock.advance(6000);
    inf.fireTimers();
    expect(actions(events).at(-1)).toBe('probe_ready:seat_credit:a');
    expect(inf.nextTimerAt()).toBeNull();
  });

  it('reset clears exactly what it names and counts only active states', () => {
    const { inf, clock, events } = setup();
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'a', 'm1', rateLimit(2000));
    for (let i = 0; i < 3; i++) attempt(inf, 'b', 'm1', failure);
    attempt(inf, 'c', 'm1', rateLimit(1000));
    clock.advance(1500); // c's deadline has expired: not counted
    expect(inf.reset('b', 'nope')).toMatchObject({ ok: false, code: 'unknown_target' });
    expect(inf.reset('zz')).toMatchObject({ ok: false, code: 'unknown_seat' });
    expect(inf.reset('b', 'm1')).toEqual({ ok: true, cleared: 1 });
    expect(inf.reset()).toEqual({ ok: true, cleared: 2 });
    expect(actions(events).filter((a) => a.startsWith('reset'))).toEqual([
      'reset:model:b/m1',
      'reset:seat_credit:a',
      'reset:seat_rate_limit:a',
    ]);
    expect(inf.open()).toEqual([]);
  });

  it('disabled: no state, no reordering, reset says influence_disabled', () => {
    const { inf, events } = setup({ enabled: false });
    attempt(inf, 'a', 'm1', credit);
    for (let i = 0; i < 5; i++) attempt(inf, 'b', 'm1', failure);
    const plan = planNow(inf);
    expect(names(plan)).toEqual(['a/m1', 'a/m2', 'b/m1', 'c/m1']);
    expect(plan.failOpen).toBe(false);
    expect(transitions(events)).toEqual([]);
    expect(inf.open()).toEqual([]);
    expect(inf.reset()).toMatchObject({ ok: false, code: 'influence_disabled' });
  });

  it('view orders a chain as a request would see it, with deadlines to count down to', () => {
    const { inf, clock } = setup({ cooldown_secs: 10 });
    attempt(inf, 'a', 'm1', credit);
    attempt(inf, 'b', 'm1', rateLimit(30_000));
    expect(inf.routes()[0]!.chain.map((t) => [t.seat, t.model, t.state, t.until])).toEqual([
      ['c', 'm1', 'healthy', null],
      ['a', 'm1', 'tripped', clock.t + 10_000],
      ['a', 'm2', 'tripped', clock.t + 10_000],
      ['b', 'm1', 'tripped', clock.t + 30_000],
    ]);
    clock.advance(10_000);
    expect(inf.routes()[0]!.chain.map((t) => t.state)).toEqual(['probe_ready', 'probe_ready', 'healthy', 'tripped']);
  });
});
