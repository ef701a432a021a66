import type { Breaker, BreakerEvent, Signal } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { leftWords } from '../../src/output/breaker-words.js';
import { type TransitionOptions, transitionLine } from '../../src/output/transition-line.js';
import { TransitionPrinter } from '../../src/output/transition-printer.js';

const T0 = Date.UTC(2025, 11, 1, 14, 2, 11);
/** the time column and the wall clock in UTC, so the lines do not depend on the machine's zone */
const utc: TransitionOptions = {
  time: (ts) => new Date(ts).toISOString().slice(11, 19),
  wallClock: (at) => new Date(at).toISOString().slice(11, 16),
  self: 'here:1',
};

const signal = (over: Partial<Signal>): Signal => ({ status: null, type: null, code: null, header: null, message: null, ...over });

function breaker(over: Partial<Breaker>): Breaker {
  return {
    key: 'credit:seat-a',
    kind: 'credit',
    scope: 'seat',
    seat: 'seat-a',
    upstream: null,
    model: null,
    phase: 'open',
    since: T0,
    until: T0 + 60_000,
    reset_at: null,
    cooldown_ms: 60_000,
    failed_probes: 0,
    refused_count: 0,
    skipped_count: 0,
    claimed_at: null,
    signal: null,
    ...over,
  };
}

let seq = 0;
function event(action: BreakerEvent['action'], b: Breaker | null, over: Partial<BreakerEvent> = {}): BreakerEvent {
  const ref = b ?? breaker({});
  return {
    type: 'breaker',
    seq: ++seq,
    ts: T0,
    action,
    scope: 'seat_credit',
    seat: ref.seat,
    model: ref.model,
    reason: 'http_402 billing_error',
    cooldown_ms: b?.cooldown_ms ?? null,
    until: b?.until ?? null,
    failed_probes: b?.failed_probes ?? 0,
    key: ref.key,
    breaker: b,
    signal: b?.signal ?? null,
    origin: 'here:1',
    ...over,
  };
}

const billing = signal({ status: 402, type: 'billing_error', message: 'This organization has no credit left' });

describe('a breaker transition in one line (serve, logs -f)', () => {
  it('a trip: time, what, which, the signal in words, and what comes next', () => {
    const credit = breaker({ signal: billing });
    expect(transitionLine(event('tripped', credit), utc)).toBe('14:02:11 tripped credit seat-a (402 billing_error) probe in 1m00s');
    const limit = breaker({
      key: 'rate_limit:seat-b',
      kind: 'rate_limit',
      seat: 'seat-b',
      until: T0 + 3_000,
      signal: signal({ status: 429, type: 'rate_limit_error', header: 'retry-after: 3' }),
    });
    expect(transitionLine(event('extended', limit, { reason: 'http_429 rate_limit_error' }), utc)).toBe(
      '14:02:11 extended rate limit seat-b (429 rate_limit_error, retry-after) ends in 3s',
    );
    const quota = breaker({
      key: 'quota:seat-c/opus-x',
      kind: 'quota',
      scope: 'model',
      seat: 'seat-c',
      model: 'opus-x',
      until: Date.UTC(2025, 11, 1, 16, 16, 11),
      signal: signal({ status: 429, type: 'rate_limit_error', header: 'anthropic-ratelimit-unified-reset: 1764605771' }),
    });
    expect(transitionLine(event('tripped', quota, { reason: 'http_429 rate_limit_error' }), utc)).toBe(
      '14:02:11 tripped quota seat-c/opus-x (429 rate_limit_error, anthropic-ratelimit-unified-reset) quota until 16:16 (in 2h14m)',
    );
  });

  it('a model trip names its streak; a provider breaker its upstream; a failed probe its count', () => {
    const errors = breaker({ key: 'errors:team/haiku-x', kind: 'errors', scope: 'model', seat: 'team', model: 'haiku-x' });
    expect(transitionLine(event('tripped', errors, { reason: '3 consecutive failures', signal: null }), utc)).toBe(
      '14:02:11 tripped errors team/haiku-x (3 consecutive failures) probe in 1m00s',
    );
    const provider = breaker({
      key: 'errors:provider:https://api.example.com/m',
      kind: 'errors',
      scope: 'provider',
      seat: null,
      model: 'm',
      upstream: 'https://api.example.com',
      signal: signal({ status: 529, type: 'overloaded_error' }),
    });
    expect(transitionLine(event('tripped', provider, { reason: '2 consecutive failures on 2 seats' }), utc)).toBe(
      '14:02:11 tripped provider errors https://api.example.com/m (529 overloaded_error, 2 consecutive failures on 2 seats) probe in 1m00s',
    );
    const failed = breaker({ signal: billing, failed_probes: 1, until: T0 + 120_000 });
    expect(transitionLine(event('probe_failed', failed, { reason: 'probe failed: http_402 billing_error' }), utc)).toBe(
      '14:02:11 probe failed credit seat-a (402 billing_error) probe in 2m00s (failed probes: 1)',
    );
  });

  it('ready, probing, cleared, and a change another daemon made', () => {
    const ready = breaker({ phase: 'probe_ready', until: T0 });
    expect(transitionLine(event('probe_ready', ready, { reason: 'cooldown elapsed' }), utc)).toBe(
      '14:02:11 probe ready credit seat-a (cooldown elapsed)',
    );
    expect(transitionLine(event('probe_claimed', breaker({ phase: 'probing' }), { reason: 'probe claimed' }), utc)).toBe(
      '14:02:11 probing credit seat-a',
    );
    expect(transitionLine(event('cleared', null, { reason: 'probe succeeded' }), utc)).toBe(
      '14:02:11 cleared credit seat-a (probe succeeded)',
    );
    expect(transitionLine(event('cleared', null, { reason: 'probe succeeded', origin: 'there:2' }), utc)).toBe(
      '14:02:11 cleared credit seat-a (probe succeeded) (from there:2)',
    );
  });

  it('counts are not transitions: no line', () => {
    expect(transitionLine(event('refused', breaker({ refused_count: 3 }), { reason: 'failed while open' }), utc)).toBeNull();
    expect(transitionLine(event('skipped', breaker({ skipped_count: 3 }), { reason: 'background work skipped' }), utc)).toBeNull();
  });

  it('a reload and a store change', () => {
    expect(transitionLine({ type: 'reload', seq: 1, ts: T0, ok: true, errors: [] }, utc)).toBe('14:02:11 reloaded the config');
    expect(transitionLine({ type: 'reload', seq: 1, ts: T0, ok: false, errors: ['f.yaml: seats: is required'] }, utc)).toBe(
      '14:02:11 reload refused, the daemon keeps its running config: f.yaml: seats: is required',
    );
    const store = { kind: 'redis' as const, state: 'degraded' as const, since: T0, daemons: 1 };
    expect(transitionLine({ type: 'store', seq: 1, ts: T0, store }, utc)).toBe(
      "14:02:11 store redis degraded: routing goes on with this daemon's own breakers",
    );
    expect(transitionLine({ type: 'store', seq: 1, ts: T0, store: { ...store, state: 'ok', daemons: 3 } }, utc)).toBe(
      '14:02:11 store redis ok, 3 daemons sharing it',
    );
  });
});

describe('a command said in one line', () => {
  /** a schedule the test fires by hand */
  function manual() {
    let pending: (() => void) | null = null;
    return {
      schedule: (fn: () => void) => {
        pending = fn;
        return () => {
          pending = null;
        };
      },
      fire: () => pending?.(),
    };
  }

  it('a reset of a seat ends each of its breakers: one line with the count, then the next transition on its own', () => {
    const lines: string[] = [];
    const clock = manual();
    const printer = new TransitionPrinter((l) => lines.push(l), utc, clock.schedule);
    const model = breaker({ key: 'errors:seat-a/m', kind: 'errors', scope: 'model', model: 'm' });
    printer.push(event('reset', null, { reason: 'reset' }));
    printer.push(event('reset', null, { reason: 'reset', key: model.key, model: 'm' }));
    expect(lines).toEqual([]); // held: more of the same command may follow
    printer.push(event('tripped', breaker({ key: 'credit:seat-b', seat: 'seat-b', signal: billing })));
    expect(lines).toEqual([
      '14:02:11 reset seat-a by control socket: cleared 2',
      '14:02:11 tripped credit seat-b (402 billing_error) probe in 1m00s',
    ]);
  });

  it('ends at its schedule; a probe command says how many it made ready; several seats are named', () => {
    const lines: string[] = [];
    const clock = manual();
    const printer = new TransitionPrinter((l) => lines.push(l), utc, clock.schedule);
    printer.push(event('probe_ready', breaker({ phase: 'probe_ready' }), { reason: 'probe now' }));
    clock.fire();
    expect(lines).toEqual(['14:02:11 probe now seat-a by control socket: ready 1']);
    for (const seat of ['a', 'b', 'c', 'd']) printer.push(event('reset', null, { reason: 'reset', key: `credit:${seat}`, seat }));
    printer.push(event('reset', null, { reason: 'reset', origin: 'there:2' })); // another daemon's command
    printer.flush();
    expect(lines.slice(1)).toEqual([
      '14:02:11 reset a, b, c and 1 more by control socket: cleared 4',
      '14:02:11 reset seat-a by the control socket of there:2: cleared 1',
    ]);
  });

  it('a breaker removed by a reload is not a command: its own line', () => {
    const lines: string[] = [];
    const printer = new TransitionPrinter((l) => lines.push(l), utc, manual().schedule);
    printer.push(event('reset', null, { reason: 'removed by reload' }));
    expect(lines).toEqual(['14:02:11 reset credit seat-a (removed by reload)']);
  });
});

describe('time left, as status and the transition lines say it', () => {
  const wall = (at: number) => new Date(at).toISOString().slice(11, 16);
  it('cooldown: probe in; rate limit: ends in; quota: until a time of day; past it: ready or probing', () => {
    const now = Date.UTC(2025, 11, 1, 11, 46, 0);
    expect(leftWords({ key: 'credit:a', seat: 'a', phase: 'open', until: now + 41_000 }, now, wall)).toBe('probe in 41s');
    expect(leftWords({ key: 'rate_limit:a', seat: 'a', phase: 'open', until: now + 2_500 }, now, wall)).toBe('ends in 3s');
    expect(leftWords({ key: 'quota:a', seat: 'a', phase: 'open', until: Date.UTC(2025, 11, 1, 14, 0, 0) }, now, wall)).toBe(
      'quota until 14:00 (in 2h14m)',
    );
    expect(leftWords({ key: 'credit:a', seat: 'a', phase: 'probe_ready', until: now - 1 }, now, wall)).toBe('probe ready');
    expect(leftWords({ key: 'errors:a/m', seat: 'a', phase: 'probing', until: now - 1 }, now, wall)).toBe('probing');
    expect(leftWords({ key: 'rate_limit:a', seat: 'a', phase: 'open', until: now }, now, wall)).toBe('ending');
  });
});
