import { afterEach, describe, expect, test } from 'vitest';
import { MonitorStore, type MonitorState } from '../../src/top/store/monitor-store.js';
import { breakerEvent, decision, failoverDecision, healthySnapshot, troubledSnapshot } from './support/fixtures.js';

const stores: MonitorStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.stop();
});

function newStore(options: ConstructorParameters<typeof MonitorStore>[0] = {}): MonitorStore {
  const store = new MonitorStore(options);
  stores.push(store);
  return store;
}

/** Resolves with the state of the next notification that satisfies `test`. */
function nextState(store: MonitorStore, test: (s: MonitorState) => boolean = () => true): Promise<MonitorState> {
  return new Promise((resolve) => {
    const off = store.subscribe(() => {
      const state = store.getState();
      if (test(state)) {
        off();
        resolve(state);
      }
    });
  });
}

const chainOf = (s: MonitorState, route: string) => s.routes.find((r) => r.route === route)!.chain.map((t) => `${t.seat}/${t.model}`);

describe('MonitorStore', () => {
  test('a flood of events is folded into one update, not one per event', async () => {
    const store = newStore({ flushIntervalMs: 50 });
    let notifications = 0;
    store.subscribe(() => (notifications += 1));
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    for (let i = 0; i < 1000; i += 1) store.push({ kind: 'event', event: decision({ ts: now }) });
    const state = await nextState(store, (s) => s.decisionsReceived === 1000);
    expect(notifications).toBe(1);
    expect(state.hasSnapshot).toBe(true);
  });

  test('updates are spaced by the flush interval however fast events come', async () => {
    const store = newStore({ flushIntervalMs: 100 });
    const times: number[] = [];
    store.subscribe(() => times.push(Date.now()));
    const now = Date.now();
    store.push({ kind: 'event', event: decision({ ts: now }) });
    await nextState(store);
    store.push({ kind: 'event', event: decision({ ts: now }) });
    await nextState(store);
    expect(times).toHaveLength(2);
    // setTimeout may fire a millisecond early; what matters is that it waited for the interval
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(95);
  });

  test('keeps only the newest decisions, numbered in arrival order', async () => {
    const store = newStore({ decisionCapacity: 5, flushIntervalMs: 10 });
    const now = Date.now();
    for (let i = 0; i < 12; i += 1) store.push({ kind: 'event', event: decision({ ts: now, request_id: `r${i}` }) });
    const state = await nextState(store, (s) => s.decisionsReceived === 12);
    expect(state.decisions.map((d) => d.event.request_id)).toEqual(['r7', 'r8', 'r9', 'r10', 'r11']);
    expect(state.decisions.map((d) => d.n)).toEqual([8, 9, 10, 11, 12]);
  });

  test('a trip event moves the target to the back of its chain with its deadline', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    expect(chainOf(await nextState(store), 'sonnet')[0]).toBe('work-max/claude-sonnet-4-5');
    const until = now + 60_000;
    store.push({ kind: 'event', event: breakerEvent({ ts: now + 1, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until }) });
    const state = await nextState(store);
    expect(chainOf(state, 'sonnet')).toEqual([
      'personal-pro/claude-sonnet-4-5',
      'openrouter/anthropic/claude-sonnet-4.5',
      'work-max/claude-sonnet-4-5',
    ]);
    const tripped = state.routes[0]!.chain.at(-1)!;
    expect(tripped).toMatchObject({ phase: 'tripped', reasons: ['credit'], deadline: until, deadlineKind: 'probe' });
  });

  test('a cleared event puts the target back at its configured position', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now + 1, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: now + 60_000 }),
    });
    await nextState(store, (s) => chainOf(s, 'sonnet')[0] === 'personal-pro/claude-sonnet-4-5');
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now + 2, action: 'cleared', scope: 'seat_credit', seat: 'work-max', reason: 'probe ok' }),
    });
    const state = await nextState(store);
    expect(chainOf(state, 'sonnet')[0]).toBe('work-max/claude-sonnet-4-5');
    expect(state.routes[0]!.chain[0]!.phase).toBe('healthy');
  });

  test('probe_claimed shows the probe in flight, probe_failed re-trips with the new deadline', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now, action: 'tripped', scope: 'model', seat: 'personal-pro', model: 'claude-opus-4-1', until: now - 1 }),
    });
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now, action: 'probe_ready', scope: 'model', seat: 'personal-pro', model: 'claude-opus-4-1' }),
    });
    let state = await nextState(store);
    expect(state.routes[1]!.chain.at(-1)).toMatchObject({ seat: 'personal-pro', phase: 'probe_ready' });
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now + 1, action: 'probe_claimed', scope: 'model', seat: 'personal-pro', model: 'claude-opus-4-1' }),
    });
    state = await nextState(store);
    expect(state.routes[1]!.chain.at(-1)).toMatchObject({ seat: 'personal-pro', phase: 'probing' });
    store.push({
      kind: 'event',
      event: breakerEvent({
        ts: now + 2,
        action: 'probe_failed',
        scope: 'model',
        seat: 'personal-pro',
        model: 'claude-opus-4-1',
        until: now + 120_000,
        failed_probes: 1,
      }),
    });
    state = await nextState(store);
    expect(state.routes[1]!.chain.at(-1)).toMatchObject({ phase: 'tripped', deadline: now + 120_000 });
    expect(state.seats.find((s) => s.id === 'personal-pro')!.breakers[0]).toMatchObject({ kind: 'model_errors', failedProbes: 1 });
  });

  test('an event the snapshot already contains is not applied again; a newer one survives an older snapshot', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now) });
    // newer than the snapshot below: must survive it
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now + 500, action: 'tripped', scope: 'seat_credit', seat: 'work-max', until: now + 60_000 }),
    });
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now + 100) });
    let state = await nextState(store);
    expect(chainOf(state, 'sonnet').at(-1)).toBe('work-max/claude-sonnet-4-5');
    // older than the latest snapshot (which says healthy): already in it, ignored
    store.push({ kind: 'snapshot', snapshot: healthySnapshot(now + 1000) });
    store.push({
      kind: 'event',
      event: breakerEvent({ ts: now + 900, action: 'tripped', scope: 'seat_credit', seat: 'personal-pro', until: now + 60_000 }),
    });
    state = await nextState(store);
    expect(chainOf(state, 'sonnet')[0]).toBe('work-max/claude-sonnet-4-5');
    expect(state.routes[0]!.chain.every((t) => t.phase === 'healthy')).toBe(true);
  });

  test('requests/s and fail-overs/min come from decision events', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    store.push({ kind: 'event', event: decision({ ts: now }) });
    store.push({ kind: 'event', event: failoverDecision(now) });
    store.push({ kind: 'event', event: failoverDecision(now) });
    const state = await nextState(store);
    expect(state.rates.failoversPerMin).toBe(2);
    expect(state.rates.requestsPerSec).toBeGreaterThan(0);
    // three requests seen within the first (at most two) observed seconds
    expect(state.rates.requestsPerSec).toBeGreaterThanOrEqual(1.5);
  });

  test('the shared tick moves time: a passed rate-limit deadline puts its targets back', async () => {
    const store = newStore({ flushIntervalMs: 10, tickIntervalMs: 100 });
    const now = Date.now();
    const snapshot = healthySnapshot(now);
    const seats = snapshot.seats.map((s) =>
      s.id === 'work-max' ? { ...s, rate_limit: { since: now, until: now + 1200, refused_count: 0 } } : s,
    );
    store.push({ kind: 'snapshot', snapshot: { ...snapshot, seats } });
    store.start();
    const held = await nextState(store);
    expect(chainOf(held, 'sonnet').at(-1)).toBe('work-max/claude-sonnet-4-5');
    const freed = await nextState(store, (s) => chainOf(s, 'sonnet')[0] === 'work-max/claude-sonnet-4-5');
    expect(freed.now).toBeGreaterThanOrEqual(now + 1200);
  });

  test('a snapshot with trouble is shown as the daemon ordered it', async () => {
    const store = newStore({ flushIntervalMs: 10 });
    const now = Date.now();
    const snapshot = troubledSnapshot(now);
    store.push({ kind: 'snapshot', snapshot });
    const state = await nextState(store);
    for (const route of snapshot.routes) {
      expect(chainOf(state, route.model)).toEqual(route.chain.map((t) => `${t.seat}/${t.model}`));
    }
    expect(state.routes.find((r) => r.route === 'opus')!.failOpen).toBe(true);
  });
});
