import { afterEach, describe, expect, test } from 'vitest';
import { ConnectionManager } from '../../src/top/source/connection-manager.js';
import type { MonitorState } from '../../src/top/store/monitor-state.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { seatRows } from '../../src/top/ui/lines/seat-lines.js';
import { FakeDaemon, type FakeDaemonOptions } from './support/fake-daemon.js';
import {
  ANTHROPIC,
  breaker,
  breakerEvent,
  decision,
  failoverDecision,
  healthySnapshot,
  providerSubject,
  seatSubject,
  targetSubject,
  troubledBreakers,
} from './support/fixtures.js';
import { chainOf, entryOf, stateWhere } from './support/wait-state.js';

/**
 * The store folds protocol v2 as the daemon sends it: the fake daemon writes
 * real JSON lines on a unix socket (hello result, snapshot result with `seq`,
 * `{"event": …}` lines with increasing `seq`), the real client reads them,
 * and the test checks the screen model: chains as ordered, states, countdown
 * deadlines, and the seats' breaker rows.
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function live(options: FakeDaemonOptions = {}, storeOptions: ConstructorParameters<typeof MonitorStore>[0] = {}) {
  const daemon = await FakeDaemon.start(options);
  const store = new MonitorStore({ flushIntervalMs: 10, ...storeOptions });
  const manager = new ConnectionManager({ connect: daemon.connect, store, initialBackoffMs: 50, maxBackoffMs: 200 });
  cleanups.push(() => daemon.close());
  cleanups.push(() => {
    manager.stop();
    store.stop();
  });
  const started = await manager.start();
  if (!started.ok) throw started.error;
  await stateWhere(store, (s) => s.hasSnapshot && s.connection.kind === 'live');
  return { daemon, store, manager };
}

const SONNET_CONFIGURED = ['work-max/claude-sonnet-4-5', 'personal-pro/claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5'];
const seatRowText = (s: MonitorState) =>
  seatRows(s.seats, { clock: { now: s.now, stale: false } }).map((r) => `${r.name} ${r.glyph} ${r.word} ${r.detail.join(' · ')}`.trim());

describe('the store folds protocol v2', () => {
  test("a usage event moves a seat's gauge without a snapshot", async () => {
    const { daemon, store } = await live();
    const snapshots = daemon.requestsOf('snapshot').length;
    const windows = [{ name: '5h', utilization: 0.62, reset_at: Date.now() + 7_200_000, status: 'allowed' }];
    daemon.emit({ type: 'usage', seat: 'work-max', usage: { observed_at: Date.now(), windows, extra_usage: null } });
    const state = await stateWhere(store, (s) => s.seats.find((x) => x.id === 'work-max')?.usage?.windows[0]?.utilization === 0.62);
    expect(state.seats.find((x) => x.id === 'work-max')!.usage!.windows).toEqual(windows);
    expect(daemon.requestsOf('snapshot')).toHaveLength(snapshots);
  });

  test('a snapshot shows chains as the daemon ordered them, with every breaker on its seat', async () => {
    const now = Date.now();
    const { daemon, store } = await live({ breakers: troubledBreakers(now) });
    const state = store.getState();
    const snapshot = daemon.snapshot();
    for (const route of snapshot.routes) expect(chainOf(state, route.model)).toEqual(route.chain.map((t) => `${t.seat}/${t.model}`));
    expect(entryOf(state, 'sonnet', 'work-max/claude-sonnet-4-5')).toMatchObject({
      state: 'tripped',
      reasons: ['credit'],
      until: now + 185_000,
    });
    expect(state.routes.find((r) => r.route === 'opus')!.failOpen).toBe(true);
    expect(seatRowText(state)).toEqual([
      expect.stringMatching(/^work-max ✗ credit probe in 3m0[45]s · failed again 4 · 1 failed probe$/),
      'personal-pro ● healthy anthropic',
      expect.stringMatching(/^└ claude-opus-4-1 ✗ errors probe in 5[45]s · failed again 2$/),
      expect.stringMatching(/^openrouter ✗ rate-limit ends in 4[12]s · failed again 1$/),
    ]);
  });

  test('a trip moves the target behind the usable ones; probe_ready brings it forward; probe_claimed holds it back', async () => {
    const { daemon, store } = await live();
    const now = Date.now();
    const credit = breaker('credit', seatSubject('work-max'), { since: now, until: now + 60_000, cooldown_ms: 60_000 });
    daemon.change('tripped', credit, 'http_402');
    let state = await stateWhere(store, (s) => chainOf(s, 'sonnet')[0] === 'personal-pro/claude-sonnet-4-5');
    expect(chainOf(state, 'sonnet')).toEqual([SONNET_CONFIGURED[1], SONNET_CONFIGURED[2], SONNET_CONFIGURED[0]]);
    expect(entryOf(state, 'sonnet', SONNET_CONFIGURED[0]!)).toMatchObject({ state: 'tripped', reasons: ['credit'], until: now + 60_000 });

    daemon.change('probe_ready', { ...credit, phase: 'probe_ready' }, 'cooldown passed');
    state = await stateWhere(store, (s) => entryOf(s, 'sonnet', SONNET_CONFIGURED[0]!)?.state === 'probe_ready');
    expect(chainOf(state, 'sonnet')).toEqual(SONNET_CONFIGURED); // a probe-ready target may be tried: back in configured order

    daemon.change('probe_claimed', { ...credit, phase: 'probing', claimed_at: Date.now() }, 'probe claimed');
    state = await stateWhere(store, (s) => entryOf(s, 'sonnet', SONNET_CONFIGURED[0]!)?.state === 'probing');
    expect(chainOf(state, 'sonnet').at(-1)).toBe(SONNET_CONFIGURED[0]);
    expect(seatRowText(state)[0]).toBe('work-max ◐ credit probing');
  });

  test('probe_failed re-trips with the doubled cooldown; cleared puts the target back at its configured position', async () => {
    const now = Date.now();
    const errors = breaker('errors', targetSubject('personal-pro', 'claude-opus-4-1'), { since: now, until: now, phase: 'probing' });
    const { daemon, store } = await live({ breakers: [errors] });
    const later = Date.now() + 120_000;
    daemon.change(
      'probe_failed',
      { ...errors, phase: 'open', until: later, cooldown_ms: 120_000, failed_probes: 1 },
      'probe failed: http_503',
    );
    let state = await stateWhere(store, (s) => entryOf(s, 'opus', 'personal-pro/claude-opus-4-1')?.state === 'tripped');
    expect(entryOf(state, 'opus', 'personal-pro/claude-opus-4-1')!.until).toBe(later);
    expect(seatRowText(state)).toContainEqual(expect.stringMatching(/^└ claude-opus-4-1 ✗ errors probe in (2m00|1m59)s · 1 failed probe$/));

    daemon.change('cleared', errors, 'probe succeeded');
    state = await stateWhere(store, (s) => entryOf(s, 'opus', 'personal-pro/claude-opus-4-1')?.state === 'healthy');
    expect(chainOf(state, 'opus')).toEqual(['work-max/claude-opus-4-1', 'personal-pro/claude-opus-4-1']);
    expect(state.seats.find((s) => s.id === 'personal-pro')!.breakers).toEqual([]);
  });

  test('reset ends every breaker it names; refused counts come by event, with no snapshot', async () => {
    const now = Date.now();
    const { daemon, store } = await live({ breakers: troubledBreakers(now) });
    const credit = daemon.breakers.get('credit:work-max')!;
    daemon.change('refused', { ...credit, refused_count: 9 }, 'refused');
    let state = await stateWhere(store, (s) => s.seats[0]!.breakers[0]?.refused_count === 9);
    expect(seatRowText(state)[0]).toMatch(/failed again 9 · 1 failed probe$/);

    daemon.change('reset', credit, 'reset');
    state = await stateWhere(store, (s) => s.seats[0]!.breakers.length === 0);
    expect(seatRowText(state)[0]).toBe('work-max ● healthy anthropic');
    expect(chainOf(state, 'sonnet')[0]).toBe('work-max/claude-sonnet-4-5');
    expect(daemon.requestsOf('snapshot')).toHaveLength(1);
  });

  test('a rate limit ends by its cleared event, not by the monitor’s clock', async () => {
    const now = Date.now();
    const limit = breaker('rate_limit', seatSubject('work-max'), { since: now, until: now + 1100, cooldown_ms: 1100 });
    // the monitor's clock, moved past the deadline by hand rather than waited out
    let ahead = 0;
    const { daemon, store } = await live({ breakers: [limit] }, { tickIntervalMs: 100, clock: () => Date.now() + ahead });
    store.start();
    ahead = 1300;
    // the deadline passes on the monitor's tick: the countdown reaches 0s, the target stays held back
    const passed = await stateWhere(store, (s) => s.now >= now + 1300);
    expect(entryOf(passed, 'sonnet', SONNET_CONFIGURED[0]!)).toMatchObject({ state: 'tripped', reasons: ['rate_limit'] });
    expect(seatRowText(passed)[0]).toBe('work-max ✗ rate-limit ends in 0s');
    // the daemon's timer says it ended
    daemon.change('cleared', limit, 'deadline passed');
    const freed = await stateWhere(store, (s) => entryOf(s, 'sonnet', SONNET_CONFIGURED[0]!)?.state === 'healthy');
    expect(chainOf(freed, 'sonnet')).toEqual(SONNET_CONFIGURED);
  });

  test('every breaker kind reads in words on its seat; a provider breaker covers both seats of its upstream', async () => {
    const now = Date.now();
    const { store } = await live({
      breakers: [
        breaker('key_rejected', seatSubject('openrouter'), { since: now, until: now + 30_000 }),
        breaker('quota', seatSubject('personal-pro'), { since: now, until: now + 7_200_000, reset_at: now + 7_200_000 }),
        breaker('errors', providerSubject(ANTHROPIC, 'claude-sonnet-4-5'), { since: now, until: now + 20_000, refused_count: 2 }),
      ],
    });
    const state = store.getState();
    expect(seatRowText(state)).toEqual([
      'work-max ● healthy anthropic',
      expect.stringMatching(/^└ claude-sonnet-4-5 ✗ provider errors probe in (20|19)s · failed again 2$/),
      expect.stringMatching(/^personal-pro ✗ quota resets \d\d:\d\d \(in (2h00m|1h59m)\)$/),
      expect.stringMatching(/^└ claude-sonnet-4-5 ✗ provider errors probe in (20|19)s · failed again 2$/),
      expect.stringMatching(/^openrouter ✗ key rejected probe in (30|29)s$/),
    ]);
    // the provider layer holds back both Anthropic seats for that model (and nothing else); the
    // rejected key holds back openrouter: every sonnet target is held back, so it fails open
    expect(chainOf(state, 'sonnet')).toEqual(SONNET_CONFIGURED);
    expect(state.routes.find((r) => r.route === 'sonnet')!.failOpen).toBe(true);
    expect(entryOf(state, 'sonnet', SONNET_CONFIGURED[0]!)).toMatchObject({ state: 'tripped', reasons: ['provider_errors'] });
    expect(entryOf(state, 'sonnet', SONNET_CONFIGURED[1]!)).toMatchObject({ state: 'tripped', reasons: ['quota', 'provider_errors'] });
    expect(entryOf(state, 'codex', 'openrouter/openai/gpt-5-codex')).toMatchObject({ state: 'tripped', reasons: ['key_rejected'] });
    expect(entryOf(state, 'opus', 'work-max/claude-opus-4-1')!.state).toBe('healthy');
  });

  test('a drained entry (weight 0) stays last and reads as drained', async () => {
    const routes = [
      {
        model: 'sonnet',
        chain: [
          { seat: 'work-max', model: 'claude-sonnet-4-5', weight: 0 },
          { seat: 'personal-pro', model: 'claude-sonnet-4-5' },
        ],
      },
    ];
    const { store } = await live({ routes });
    const state = store.getState();
    expect(chainOf(state, 'sonnet')).toEqual(['personal-pro/claude-sonnet-4-5', 'work-max/claude-sonnet-4-5']);
    expect(entryOf(state, 'sonnet', 'work-max/claude-sonnet-4-5')!.state).toBe('drained');
  });
});

describe('seq: the snapshot and the events line up exactly', () => {
  test('events sent right behind the snapshot reply, in the same read, are applied over it', async () => {
    const daemon = await FakeDaemon.start();
    cleanups.push(() => daemon.close());
    const now = Date.now();
    const credit = breaker('credit', seatSubject('work-max'), { since: now, until: now + 60_000 });
    daemon.afterSnapshot = () => {
      daemon.change('tripped', credit, 'http_402');
      daemon.change('refused', { ...credit, refused_count: 1 });
    };
    const store = new MonitorStore({ flushIntervalMs: 10 });
    const manager = new ConnectionManager({ connect: daemon.connect, store });
    cleanups.push(() => {
      manager.stop();
      store.stop();
    });
    expect(await manager.start()).toEqual({ ok: true });
    const state = await stateWhere(store, (s) => s.hasSnapshot && s.seq === 2);
    expect(entryOf(state, 'sonnet', SONNET_CONFIGURED[0]!)!.state).toBe('tripped');
    expect(state.seats[0]!.breakers[0]!.refused_count).toBe(1);
  });

  test('events between subscribe and the snapshot are in it; a stale line after it (seq ≤ snapshot.seq) is ignored', async () => {
    const daemon = await FakeDaemon.start();
    cleanups.push(() => daemon.close());
    const now = Date.now();
    const credit = breaker('credit', seatSubject('work-max'), { since: now, until: now + 60_000 });
    daemon.onSubscribe = () => {
      daemon.change('tripped', credit, 'http_402'); // seq 1
      daemon.change('cleared', credit, 'probe succeeded'); // seq 2
    };
    const store = new MonitorStore({ flushIntervalMs: 10 });
    const manager = new ConnectionManager({ connect: daemon.connect, store });
    cleanups.push(() => {
      manager.stop();
      store.stop();
    });
    await manager.start();
    let state = await stateWhere(store, (s) => s.hasSnapshot);
    expect(state.seq).toBe(2);
    expect(chainOf(state, 'sonnet')).toEqual(SONNET_CONFIGURED);
    // a line the daemon would never send now: its seq is already reflected
    daemon.sendLine(JSON.stringify({ event: breakerEvent(1, now, 'tripped', credit, 'http_402') }));
    daemon.decide(decision({ ts: Date.now() })); // seq 3: proves the stale line was read before it
    state = await stateWhere(store, (s) => s.decisionsReceived === 1);
    expect(state.seq).toBe(2);
    expect(entryOf(state, 'sonnet', SONNET_CONFIGURED[0]!)!.state).toBe('healthy');
  });

  test('a restarted daemon: a fresh snapshot on reconnect, and its seq starting over is followed', async () => {
    const now = Date.now();
    const { daemon, store } = await live({ breakers: troubledBreakers(now) });
    const credit = daemon.breakers.get('credit:work-max')!;
    for (let i = 1; i <= 5; i += 1) daemon.change('refused', { ...credit, refused_count: 4 + i });
    await stateWhere(store, (s) => s.seq === 5);
    await daemon.restart();
    const down = await stateWhere(store, (s) => s.connection.kind === 'disconnected');
    expect(chainOf(down, 'sonnet')[0]).toBe('personal-pro/claude-sonnet-4-5'); // the last state stays until the new snapshot
    const back = await stateWhere(store, (s) => s.connection.kind === 'live' && s.seq === 0);
    expect(back.seats.every((s) => s.breakers.length === 0)).toBe(true);
    expect(chainOf(back, 'sonnet')).toEqual(SONNET_CONFIGURED);
    const trip = breaker('credit', seatSubject('personal-pro'), { since: Date.now(), until: Date.now() + 60_000 });
    daemon.change('tripped', trip, 'http_402'); // seq 1 of the new daemon
    const tripped = await stateWhere(store, (s) => s.seq === 1);
    expect(entryOf(tripped, 'sonnet', SONNET_CONFIGURED[1]!)!.state).toBe('tripped');
  });

  test('a reload brings a fresh snapshot with the new configured chains', async () => {
    const { daemon, store } = await live();
    daemon.routes.push({ model: 'haiku', chain: [{ seat: 'personal-pro', model: 'claude-haiku-4-5' }] });
    daemon.emit({ type: 'reload', ok: true, errors: [] });
    const state = await stateWhere(store, (s) => s.routes.some((r) => r.route === 'haiku'));
    expect(chainOf(state, 'haiku')).toEqual(['personal-pro/claude-haiku-4-5']);
    expect(daemon.requestsOf('snapshot')).toHaveLength(2);
    // a failed reload changed nothing: no snapshot
    daemon.emit({ type: 'reload', ok: false, errors: ['routeplane.yaml: routes.0.model: expected a string'] });
    daemon.decide(decision({ ts: Date.now() }));
    await stateWhere(store, (s) => s.decisionsReceived === 1);
    expect(daemon.requestsOf('snapshot')).toHaveLength(2);
  });

  test('a snapshot after a reload that fails: the monitor starts over rather than hold events forever', async () => {
    const { daemon, store } = await live();
    daemon.failSnapshots = 1;
    daemon.routes.push({ model: 'haiku', chain: [{ seat: 'personal-pro', model: 'claude-haiku-4-5' }] });
    daemon.emit({ type: 'reload', ok: true, errors: [] });
    await stateWhere(store, (s) => s.connection.kind === 'disconnected');
    const state = await stateWhere(store, (s) => s.connection.kind === 'live' && s.routes.some((r) => r.route === 'haiku'));
    expect(daemon.requestsOf('snapshot')).toHaveLength(3);
    // and events flow again
    daemon.change('tripped', breaker('credit', seatSubject('work-max'), { since: Date.now(), until: Date.now() + 60_000 }), 'http_402');
    await stateWhere(store, (s) => s.seq > state.seq && entryOf(s, 'sonnet', SONNET_CONFIGURED[0]!)?.state === 'tripped');
  });

  test('a store event changes what the header will show', async () => {
    const { daemon, store } = await live();
    daemon.emit({ type: 'store', store: { kind: 'redis', state: 'degraded', since: Date.now(), daemons: 3 } });
    const state = await stateWhere(store, (s) => s.store?.kind === 'redis');
    expect(state.store).toMatchObject({ state: 'degraded', daemons: 3 });
  });
});

describe('the store on its own', () => {
  const stores: MonitorStore[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.stop();
  });
  function newStore(options: ConstructorParameters<typeof MonitorStore>[0] = {}): MonitorStore {
    const store = new MonitorStore(options);
    stores.push(store);
    return store;
  }

  test('a flood of events is folded into one update, not one per event', async () => {
    const store = newStore({ flushIntervalMs: 50 });
    let notifications = 0;
    store.subscribe(() => (notifications += 1));
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    for (let i = 0; i < 1000; i += 1) store.push({ kind: 'event', event: { ...decision({ ts: now }), seq: i + 1 } });
    const state = await stateWhere(store, (s) => s.decisionsReceived === 1000);
    expect(notifications).toBe(1);
    expect(state.hasSnapshot).toBe(true);
  });

  test('updates are spaced by the flush interval however fast events come', async () => {
    const store = newStore({ flushIntervalMs: 100 });
    const times: number[] = [];
    store.subscribe(() => times.push(Date.now()));
    const now = Date.now();
    store.push({ kind: 'event', event: decision({ ts: now }) });
    await stateWhere(store, (s) => s.decisionsReceived === 1);
    store.push({ kind: 'event', event: decision({ ts: now }) });
    await stateWhere(store, (s) => s.decisionsReceived === 2);
    expect(times).toHaveLength(2);
    // setTimeout may fire a millisecond early; what matters is that it waited for the interval
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(95);
  });

  test('keeps only the newest decisions, each under its request id', async () => {
    const store = newStore({ decisionCapacity: 5, flushIntervalMs: 10 });
    const now = Date.now();
    for (let i = 0; i < 12; i += 1) store.push({ kind: 'event', event: decision({ ts: now, request_id: `r${i}` }) });
    const state = await stateWhere(store, (s) => s.decisionsReceived === 12);
    expect(state.decisions.map((d) => d.event.request_id)).toEqual(['r7', 'r8', 'r9', 'r10', 'r11']);
    expect(state.decisions.map((d) => d.id)).toEqual(['r7', 'r8', 'r9', 'r10', 'r11']);
  });

  test('requests/s and fail-overs/min come from decision events', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'event', event: decision({ ts: now }) });
    store.push({ kind: 'event', event: failoverDecision(now) });
    store.push({ kind: 'event', event: failoverDecision(now) });
    const state = await stateWhere(store, (s) => s.decisionsReceived === 3);
    expect(state.rates.failoversPerMin).toBe(2);
    // three requests seen within the first (at most two) observed seconds
    expect(state.rates.requestsPerSec).toBeGreaterThanOrEqual(1.5);
  });

  test('the tick moves `now` and nothing else: panels keep their rows between events', async () => {
    const store = newStore({ flushIntervalMs: 10, tickIntervalMs: 50 });
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(Date.now()) });
    const first = await stateWhere(store, (s) => s.hasSnapshot);
    store.start();
    const later = await stateWhere(store, (s) => s.now > first.now + 100);
    expect(later.routes).toBe(first.routes);
    expect(later.seats).toBe(first.seats);
  });
});
