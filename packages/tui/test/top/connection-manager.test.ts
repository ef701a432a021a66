import { afterEach, describe, expect, test } from 'vitest';
import { ConnectionManager } from '../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../src/top/store/monitor-store.js';
import { FakeDaemon, type FakeDaemonOptions } from './support/fake-daemon.js';
import { breaker, failoverDecision, INFLUENCE_OFF, seatSubject, targetSubject, troubledBreakers } from './support/fixtures.js';
import { stateWhere } from './support/wait-state.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: FakeDaemonOptions = {}) {
  const daemon = await FakeDaemon.start(options);
  const store = new MonitorStore({ flushIntervalMs: 10 });
  const manager = new ConnectionManager({ connect: daemon.connect, store, initialBackoffMs: 100, maxBackoffMs: 300 });
  cleanups.push(() => daemon.close());
  cleanups.push(() => {
    manager.stop();
    store.stop();
  });
  return { daemon, store, manager };
}

describe('ConnectionManager', () => {
  test('connects with hello, then subscribe and snapshot on the same connection, and goes live', async () => {
    const { daemon, store, manager } = await setup();
    expect(await manager.start()).toEqual({ ok: true });
    // then the daemon's recent decisions, for the log
    await expect.poll(() => daemon.requests.map((r) => r.cmd)).toEqual(['hello', 'subscribe', 'snapshot', 'recent']);
    expect(daemon.connects).toBe(1);
    const state = await stateWhere(store, (s) => s.hasSnapshot);
    expect(state.connection.kind).toBe('live');
    expect(state.daemon).toMatchObject({ httpUrl: 'http://127.0.0.1:4141', pid: 4242, version: '0.2.0' });
  });

  test('no daemon: the first attempt fails with its error and is not retried', async () => {
    const { daemon, manager } = await setup();
    await daemon.stop();
    const result = await manager.start();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain('not running');
    expect(daemon.connects).toBe(1);
  });

  test('a daemon that does not speak protocol 2 is refused in words', async () => {
    const { daemon, manager } = await setup({ protocol: null });
    const result = await manager.start();
    expect(!result.ok && result.error.message).toBe(
      'the daemon (routeplane 0.2.0) speaks control protocol 1; this monitor needs protocol 2: update the daemon',
    );
    expect(daemon.requestsOf('snapshot')).toHaveLength(0);
  });

  test('a lost connection shows disconnected with a retry time, keeps trying, then reconnects with a fresh snapshot', async () => {
    const { daemon, store, manager } = await setup();
    await manager.start();
    await stateWhere(store, (s) => s.hasSnapshot);
    await daemon.stop();
    const down = await stateWhere(store, (s) => s.connection.kind === 'disconnected' && s.connection.retryAt !== null);
    expect(down.hasSnapshot).toBe(true); // the last state stays on screen
    const connectsWhileDown = daemon.connects;
    // still down at the next retries: it keeps trying
    await expect.poll(() => daemon.connects, { timeout: 4000 }).toBeGreaterThanOrEqual(connectsWhileDown + 2);
    expect(store.getState().connection.kind).toBe('disconnected');
    await daemon.restart();
    await stateWhere(store, (s) => s.connection.kind === 'live');
    expect(daemon.requestsOf('snapshot')).toHaveLength(2);
  });

  test('an overflow line drops the connection and a new one starts over', async () => {
    const { daemon, store, manager } = await setup();
    await manager.start();
    daemon.overflow();
    await stateWhere(store, (s) => s.connection.kind === 'disconnected');
    await stateWhere(store, (s) => s.connection.kind === 'live');
    expect(daemon.connects).toBe(2);
    expect(daemon.requestsOf('subscribe')).toHaveLength(2);
  });

  test('breaker events are applied as they come: no snapshot is asked for again', async () => {
    const { daemon, store, manager } = await setup();
    await manager.start();
    const now = Date.now();
    const limit = breaker('rate_limit', seatSubject('work-max'), { since: now, until: now + 60_000 });
    daemon.change('tripped', limit, 'http_429');
    for (let i = 1; i <= 20; i += 1) daemon.change('refused', { ...limit, refused_count: i });
    const state = await stateWhere(store, (s) => s.seats[0]?.breakers[0]?.refused_count === 20);
    expect(state.seq).toBe(21);
    expect(daemon.requestsOf('snapshot')).toHaveLength(1);
  });

  test('decisions flow into the store', async () => {
    const { daemon, store, manager } = await setup();
    await manager.start();
    daemon.decide(failoverDecision(Date.now()));
    const state = await stateWhere(store, (s) => s.decisionsReceived === 1);
    expect(state.decisions[0]!.event.attempts).toHaveLength(2);
  });

  test('reset sends exactly what it names and answers as a value; the daemon’s events update the screen', async () => {
    const { daemon, store, manager } = await setup({ breakers: troubledBreakers(Date.now()) });
    await manager.start();
    expect(await manager.reset({ scope: 'target', seat: 'personal-pro', model: 'claude-opus-4-1' })).toEqual({ ok: true, cleared: 1 });
    expect(await manager.reset({ scope: 'seat', seat: 'work-max' })).toEqual({ ok: true, cleared: 1 });
    expect(await manager.reset({ scope: 'all' })).toEqual({ ok: true, cleared: 1 });
    expect(await manager.reset({ scope: 'seat', seat: 'nobody' })).toEqual({
      ok: false,
      code: 'unknown_seat',
      message: 'unknown seat "nobody"',
    });
    expect(daemon.requestsOf('reset').map((r) => r.args)).toEqual([
      { seat: 'personal-pro', model: 'claude-opus-4-1' },
      { seat: 'work-max' },
      undefined,
      { seat: 'nobody' },
    ]);
    await stateWhere(store, (s) => s.seq === 3 && s.seats.every((seat) => seat.breakers.length === 0));
    expect(daemon.requestsOf('snapshot')).toHaveLength(1);
  });

  test('probe makes the open breakers it names probe-ready, answers {made_ready} as a value', async () => {
    const now = Date.now();
    const { daemon, store, manager } = await setup({
      breakers: [
        ...troubledBreakers(now),
        breaker('errors', targetSubject('work-max', 'claude-opus-4-1'), { since: now, until: now + 30_000 }),
      ],
    });
    await manager.start();
    expect(await manager.probe('work-max')).toEqual({ ok: true, madeReady: 2 });
    const state = await stateWhere(store, (s) => s.seq === 2 && s.seats[0]!.breakers.every((b) => b.phase === 'probe_ready'));
    expect(state.seats[0]!.breakers.map((b) => b.key)).toEqual(['credit:work-max', 'errors:work-max/claude-opus-4-1']);
    // already probe-ready: nothing left to make ready
    expect(await manager.probe('work-max', 'claude-opus-4-1')).toEqual({ ok: true, madeReady: 0 });
    // a rate limit needs no probe: its deadline is left alone
    expect(await manager.probe('openrouter')).toEqual({ ok: true, madeReady: 0 });
    expect(await manager.probe('personal-pro', 'claude-opus-4-1')).toEqual({ ok: true, madeReady: 1 });
    expect(await manager.probe('work-max', 'gpt-0')).toEqual({
      ok: false,
      code: 'unknown_target',
      message: 'unknown target "work-max/gpt-0"',
    });
    expect(daemon.requestsOf('probe').map((r) => r.args)).toEqual([
      { seat: 'work-max' },
      { seat: 'work-max', model: 'claude-opus-4-1' },
      { seat: 'openrouter' },
      { seat: 'personal-pro', model: 'claude-opus-4-1' },
      { seat: 'work-max', model: 'gpt-0' },
    ]);
  });

  test('probe with influence off says so as a value', async () => {
    const { manager } = await setup({ influence: INFLUENCE_OFF });
    await manager.start();
    expect(await manager.probe('work-max')).toEqual({ ok: false, code: 'influence_disabled', message: 'routing influence is disabled' });
  });

  test('reset and probe while disconnected send nothing', async () => {
    const { daemon, store, manager } = await setup();
    await manager.start();
    await daemon.stop();
    await stateWhere(store, (s) => s.connection.kind === 'disconnected');
    expect(await manager.reset({ scope: 'all' })).toMatchObject({ ok: false, code: 'disconnected' });
    expect(await manager.probe('work-max')).toMatchObject({ ok: false, code: 'disconnected' });
    expect(daemon.requestsOf('reset')).toHaveLength(0);
    expect(daemon.requestsOf('probe')).toHaveLength(0);
  });
});
