import type {
  Breaker,
  BreakerEvent,
  DaemonEvent,
  DecisionEvent,
  NotifyKind,
  SeatUsage,
  Signal,
  StoreEvent,
  UsageEvent,
} from '@routeplane/shared';
import { NOTIFY_KINDS } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import type { NotifyFacts } from '../../src/notify/notification.js';
import { Debounce, NOTIFY_EVERY_MS, NotificationRules } from '../../src/notify/rules.js';
import { DECISION_DEFAULTS } from '../control/sample-events.js';

/**
 * Which event is which notification, with which text, debounced how — the
 * pure rules with an injected clock and facts (where requests go now, the
 * seat's usage windows, the wall clock in UTC).
 */
const NOW = Date.UTC(2026, 10, 30, 13, 46, 0);
const IN_2H14M = NOW + (2 * 60 + 14) * 60_000; // 16:00
const ALL: readonly NotifyKind[] = NOTIFY_KINDS;

class Clock {
  t = NOW;
  now = () => this.t;
}

const facts = (over: Partial<NotifyFacts> = {}): NotifyFacts => ({
  self: 'host:1',
  goesTo: () => ['max-2'],
  usageOf: () => null,
  wallClock: (at) => new Date(at).toISOString().slice(11, 16),
  ...over,
});

const signal = (over: Partial<Signal>): Signal => ({ status: null, type: null, code: null, header: null, message: null, ...over });

let seq = 0;
function breakerEvent(over: Partial<BreakerEvent> & Pick<BreakerEvent, 'action' | 'scope' | 'key'>): BreakerEvent {
  const until = over.until === undefined ? NOW + 60_000 : over.until;
  return {
    type: 'breaker',
    seq: ++seq,
    ts: NOW,
    seat: 'max-1',
    model: null,
    reason: 'http_429',
    cooldown_ms: 60_000,
    until,
    failed_probes: 0,
    breaker: null,
    signal: null,
    origin: 'host:1',
    ...over,
  };
}

const quotaTrip = (over: Partial<BreakerEvent> = {}) =>
  breakerEvent({
    action: 'tripped',
    scope: 'seat_quota',
    key: 'quota:max-1',
    until: IN_2H14M,
    breaker: { reset_at: IN_2H14M } as Breaker,
    signal: signal({ status: 429, type: 'rate_limit_error', header: `anthropic-ratelimit-unified-reset: ${IN_2H14M / 1000}` }),
    ...over,
  });

const spent5h: SeatUsage = {
  observed_at: NOW,
  windows: [
    { name: '5h', utilization: 1.01, reset_at: IN_2H14M, status: 'rejected' },
    { name: '7d', utilization: 0.12, reset_at: NOW + 5 * 86_400_000, status: 'allowed' },
  ],
  extra_usage: false,
};

function decide(events: DaemonEvent[], on: readonly NotifyKind[] = ALL, f: NotifyFacts = facts(), clock = new Clock()) {
  const rules = new NotificationRules(clock.now);
  return events.map((e) => rules.decide(e, on, f));
}

describe('texts, as serve says transitions', () => {
  it('a spent window: which one, when it resets, where requests go', () => {
    const [n] = decide([quotaTrip()], ALL, facts({ usageOf: () => spent5h }));
    expect(n).toEqual({
      kind: 'quota',
      text: 'seat max-1 spent its 5h window (quota) — resets 16:00 (in 2h14m); requests go to max-2',
      seat: 'max-1',
      model: null,
      route: null,
      until: IN_2H14M,
      ts: NOW,
    });
  });

  it('a quota with no window reported names its signal; a per-model one its target', () => {
    const codex = quotaTrip({ signal: signal({ status: 429, type: 'usage_limit_reached' }), breaker: null });
    expect(decide([codex])[0]?.text).toBe(
      'seat max-1 ran out of quota (429 usage_limit_reached) — resets 16:00 (in 2h14m); requests go to max-2',
    );
    const opus = quotaTrip({ scope: 'model_quota', key: 'quota:max-1/claude-opus-4', model: 'claude-opus-4' });
    const weekly: SeatUsage = {
      observed_at: NOW,
      windows: [{ name: '7d_opus', utilization: 1, reset_at: IN_2H14M + 30_000, status: null }],
      extra_usage: false,
    };
    const [n] = decide(
      [opus],
      ALL,
      facts({
        usageOf: () => weekly,
        goesTo: (seat, model) => (seat === 'max-1' && model === 'claude-opus-4' ? ['max-1/claude-sonnet-5', 'max-2'] : null),
      }),
    );
    expect(n).toMatchObject({ kind: 'quota', seat: 'max-1', model: 'claude-opus-4' });
    expect(n?.text).toBe(
      'max-1/claude-opus-4 spent its 7d_opus window (quota) — resets 16:00 (in 2h14m); requests go to max-1/claude-sonnet-5, max-2',
    );
  });

  it('credit and a rejected key: the signal, the probe, where requests go', () => {
    const credit = breakerEvent({
      action: 'tripped',
      scope: 'seat_credit',
      key: 'credit:api-1',
      seat: 'api-1',
      signal: signal({
        status: 400,
        type: 'invalid_request_error',
        message: 'Your credit balance is too low to access the Anthropic API.',
      }),
    });
    const key = breakerEvent({
      action: 'tripped',
      scope: 'seat_key',
      key: 'key_rejected:api-2',
      seat: 'api-2',
      signal: signal({ status: 401, type: 'authentication_error' }),
    });
    const [c, k] = decide([credit, key]);
    expect(c).toMatchObject({ kind: 'credit', until: NOW + 60_000 });
    expect(c?.text).toBe('seat api-1 ran out of credit (400 credit balance is too low) — probe in 1m00s; requests go to max-2');
    expect(k?.text).toBe("seat api-2's key was rejected (401 authentication_error) — probe in 1m00s; requests go to max-2");
  });

  it('says when nothing else is healthy, and says nothing of routes when no route uses the seat', () => {
    expect(decide([quotaTrip()], ALL, facts({ goesTo: () => [] }))[0]?.text).toMatch(
      /; every other target is held back too, so requests fail open$/,
    );
    expect(decide([quotaTrip()], ALL, facts({ goesTo: () => null }))[0]?.text).toBe(
      'seat max-1 ran out of quota (429 rate_limit_error) — resets 16:00 (in 2h14m)',
    );
  });

  it('recovered: cleared by a success or a probe — not by a reset, a reload or a deadline', () => {
    const cleared = (reason: string) => breakerEvent({ action: 'cleared', scope: 'seat_quota', key: 'quota:max-1', reason, until: null });
    const [probe, success, deadline] = decide([
      cleared('probe succeeded'),
      cleared('success on claude-sonnet-5'),
      cleared('deadline passed'),
    ]);
    expect(probe).toEqual({
      kind: 'recovered',
      text: 'seat max-1 is back: quota cleared (probe succeeded)',
      seat: 'max-1',
      model: null,
      route: null,
      until: null,
      ts: NOW,
    });
    expect(success).toBeNull(); // the same (kind, seat) within 5 minutes
    expect(deadline).toBeNull();
    const [bySuccess] = decide([cleared('success on claude-sonnet-5')]);
    expect(bySuccess?.text).toBe('seat max-1 is back: quota cleared (success on claude-sonnet-5)');
    const reset = breakerEvent({ action: 'reset', scope: 'seat_credit', key: 'credit:max-1', reason: 'reset', until: null });
    const reload = breakerEvent({
      action: 'reset',
      scope: 'seat_key',
      key: 'key_rejected:max-1',
      reason: 'removed by reload',
      until: null,
    });
    expect(decide([reset, reload])).toEqual([null, null]);
  });

  it('rate limits and model errors never notify, nor do extensions, probes and counts', () => {
    const events = [
      breakerEvent({ action: 'tripped', scope: 'seat_rate_limit', key: 'rate_limit:max-1' }),
      breakerEvent({ action: 'tripped', scope: 'model', key: 'errors:max-1/m', model: 'm' }),
      breakerEvent({ action: 'cleared', scope: 'model', key: 'errors:max-1/m', model: 'm', reason: 'probe succeeded' }),
      breakerEvent({ action: 'tripped', scope: 'provider_model', key: 'errors:provider:https://x/m', seat: null, model: 'm' }),
      quotaTrip({ action: 'extended' }),
      quotaTrip({ action: 'probe_failed' }),
      quotaTrip({ action: 'probe_ready' }),
      quotaTrip({ action: 'refused' }),
    ];
    expect(decide(events)).toEqual(events.map(() => null));
  });

  it("a change another daemon made (a shared store) is that daemon's to say; a breaker restored at start is no news", () => {
    const fromElsewhere = quotaTrip({ origin: 'other-host:7' });
    const restored = quotaTrip({ reason: 'restored from state file' });
    const clearedElsewhere = breakerEvent({
      action: 'cleared',
      scope: 'seat_quota',
      key: 'quota:max-1',
      reason: 'probe succeeded',
      until: null,
      origin: 'other-host:7',
    });
    expect(decide([fromElsewhere, restored, clearedElsewhere])).toEqual([null, null, null]);
  });

  it('fail_open: per route', () => {
    const decision = (route: string, failOpen: boolean): DecisionEvent => ({
      type: 'decision',
      seq: ++seq,
      ts: NOW,
      request_id: `r-${seq}`,
      route,
      family: 'anthropic',
      stream: false,
      chain: [],
      attempts: [],
      served_by: null,
      status: 200,
      duration_ms: 3,
      fail_open: failOpen,
      ...DECISION_DEFAULTS,
    });
    const [none, sonnet, again, haiku] = decide([
      decision('sonnet', false),
      decision('sonnet', true),
      decision('sonnet', true),
      decision('haiku', true),
    ]);
    expect(none).toBeNull();
    expect(sonnet).toEqual({
      kind: 'fail_open',
      text: 'route sonnet failed open: every target is held back, so requests go to them in configured order',
      seat: null,
      model: null,
      route: 'sonnet',
      until: null,
      ts: NOW,
    });
    expect(again).toBeNull();
    expect(haiku?.route).toBe('haiku');
  });

  it('extra_usage: when a seat’s answers begin to be billed past the plan, and an avoid seat’s trip for it (not as quota)', () => {
    const usage = (seat: string, extra: boolean | null): UsageEvent => ({
      type: 'usage',
      seq: ++seq,
      ts: NOW,
      seat,
      usage: { observed_at: NOW, windows: [], extra_usage: extra } as SeatUsage,
    });
    const clock = new Clock();
    const rules = new NotificationRules(clock.now);
    const on = (e: DaemonEvent) => rules.decide(e, ALL, facts());
    expect(on(usage('max-1', false))).toBeNull();
    expect(on(usage('max-1', true))).toEqual({
      kind: 'extra_usage',
      text: "seat max-1 began billing extra usage: its answers are paid for past the plan's window",
      seat: 'max-1',
      model: null,
      route: null,
      until: null,
      ts: NOW,
    });
    expect(on(usage('max-1', true))).toBeNull(); // still billed: no news
    clock.t += NOTIFY_EVERY_MS;
    expect(on(usage('max-1', false))).toBeNull();
    expect(on(usage('max-1', true))?.kind).toBe('extra_usage'); // began again, past the debounce
    // a seat with no answer yet that said either way never notifies it
    expect(
      on({ type: 'usage', seq: ++seq, ts: NOW, seat: 'max-2', usage: { observed_at: NOW, windows: [], extra_usage: null } }),
    ).toBeNull();

    const overage = quotaTrip({
      seat: 'max-3',
      key: 'quota:max-3',
      signal: signal({ status: 200, header: 'anthropic-ratelimit-unified-overage-in-use: true' }),
    });
    const [n] = decide([overage]);
    expect(n).toMatchObject({ kind: 'extra_usage', seat: 'max-3', until: IN_2H14M });
    expect(n?.text).toBe(
      'seat max-3 began billing extra usage (anthropic-ratelimit-unified-overage-in-use) — held back until 16:00 (in 2h14m); requests go to max-2',
    );
  });

  it('store: degraded, and back — not its first ok at start', () => {
    const store = (state: 'ok' | 'degraded', daemons = 2): StoreEvent => ({
      type: 'store',
      seq: ++seq,
      ts: NOW,
      store: { kind: 'redis', state, since: NOW, daemons },
    });
    const [start, degraded, back] = decide([store('ok'), store('degraded'), store('ok', 3)]);
    expect(start).toBeNull();
    expect(degraded).toMatchObject({ kind: 'store', text: "shared store redis degraded: routing goes on with this daemon's own breakers" });
    expect(back).toMatchObject({ kind: 'store', text: 'shared store redis is back: 3 daemons share it' });
  });
});

describe('which are sent, and how often', () => {
  it('only the kinds `on` lists', () => {
    const cleared = breakerEvent({ action: 'cleared', scope: 'seat_quota', key: 'quota:max-1', reason: 'probe succeeded', until: null });
    expect(decide([quotaTrip(), cleared], ['recovered']).map((n) => n?.kind ?? null)).toEqual([null, 'recovered']);
  });

  it('at most one per (kind, seat) per 5 minutes; another seat, or another kind, is news of its own', () => {
    const clock = new Clock();
    const rules = new NotificationRules(clock.now);
    const on = (e: DaemonEvent) => rules.decide(e, ALL, facts())?.kind ?? null;
    const cleared = breakerEvent({ action: 'cleared', scope: 'seat_quota', key: 'quota:max-1', reason: 'probe succeeded', until: null });
    expect(on(quotaTrip())).toBe('quota');
    expect(on(cleared)).toBe('recovered');
    clock.t += 60_000;
    expect(on(quotaTrip())).toBeNull();
    expect(on(cleared)).toBeNull();
    expect(on(quotaTrip({ seat: 'max-2', key: 'quota:max-2' }))).toBe('quota');
    // a model's quota on the same seat is the same (kind, seat)
    expect(on(quotaTrip({ scope: 'model_quota', key: 'quota:max-1/m', model: 'm' }))).toBeNull();
    clock.t = NOW + NOTIFY_EVERY_MS - 1;
    expect(on(quotaTrip())).toBeNull();
    clock.t = NOW + NOTIFY_EVERY_MS;
    expect(on(quotaTrip())).toBe('quota');
  });

  it('a debounce lets a key through once per window', () => {
    const d = new Debounce(1_000);
    expect([d.pass('a', 0), d.pass('a', 999), d.pass('b', 999), d.pass('a', 1_000), d.pass('a', 1_500)]).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
  });
});
