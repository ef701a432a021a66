import { afterEach, describe, expect, test } from 'vitest';
import { ConnectionManager } from '../../src/top/source/connection-manager.js';
import { MonitorStore, type MonitorState } from '../../src/top/store/monitor-store.js';
import { FakeDaemon } from './support/fake-daemon.js';
import { breakerEvent, failoverDecision, healthySnapshot, hello } from './support/fixtures.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function setup(options: { resnapshotIntervalMs?: number } = {}) {
  const daemon = new FakeDaemon({
    hello: () => hello(Date.now()),
    snapshot: () => healthySnapshot(Date.now()),
    subscribe: () => ({ subscribed: true }),
    reset: (args) => {
      if (args?.seat === 'nobody') throw Object.assign(new Error('unknown seat nobody'), { code: 'unknown_seat' });
      return { cleared: 2 };
    },
  });
  const store = new MonitorStore({ flushIntervalMs: 10 });
  const manager = new ConnectionManager({
    connect: daemon.connect,
    store,
    initialBackoffMs: 100,
    maxBackoffMs: 300,
    resnapshotIntervalMs: options.resnapshotIntervalMs ?? 200,
  });
  cleanups.push(() => {
    manager.stop();
    store.stop();
  });
  return { daemon, store, manager };
}

function until(store: MonitorStore, test: (s: MonitorState) => boolean, timeoutMs = 4000): Promise<MonitorState> {
  return new Promise((resolve, reject) => {
    if (test(store.getState())) return resolve(store.getState());
    const timer = setTimeout(() => {
      off();
      reject(new Error(`condition not reached; connection: ${JSON.stringify(store.getState().connection)}`));
    }, timeoutMs);
    const off = store.subscribe(() => {
      if (test(store.getState())) {
        clearTimeout(timer);
        off();
        resolve(store.getState());
      }
    });
  });
}

async function waitForRequests(daemon: FakeDaemon, cmd: 'snapshot', count: number, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (daemon.requestsOf(cmd).length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} ${cmd} requests, saw ${daemon.requestsOf(cmd).length}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('ConnectionManager', () => {
  test('connects with hello, snapshot, then subscribe, and goes live', async () => {
    const { daemon, store, manager } = setup();
    expect(await manager.start()).toEqual({ ok: true });
    expect(daemon.requests.slice(0, 3).map((r) => r.cmd)).toEqual(['hello', 'snapshot', 'subscribe']);
    const state = await until(store, (s) => s.hasSnapshot);
    expect(state.connection.kind).toBe('live');
    expect(state.daemon?.httpUrl).toBe('http://127.0.0.1:4141');
  });

  test('no daemon: the first attempt fails with its error and is not retried', async () => {
    const { daemon, manager } = setup();
    daemon.up = false;
    const result = await manager.start();
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toContain('not running');
    expect(daemon.clients).toHaveLength(0);
  });

  test('a lost connection shows disconnected with a retry time, then reconnects with a fresh snapshot', async () => {
    const { daemon, store, manager } = setup();
    await manager.start();
    await until(store, (s) => s.hasSnapshot);
    const snapshotsBefore = daemon.requestsOf('snapshot').length;
    daemon.stop();
    const down = await until(store, (s) => s.connection.kind === 'disconnected' && s.connection.retryAt !== null);
    expect(down.hasSnapshot).toBe(true); // the last state stays on screen
    // still down at the first retries: it keeps trying
    const deadline = Date.now() + 4000;
    while (daemon.refused < 2) {
      if (Date.now() > deadline) throw new Error('no retry');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(store.getState().connection.kind).toBe('disconnected');
    daemon.up = true;
    await until(store, (s) => s.connection.kind === 'live');
    expect(daemon.clients.length).toBeGreaterThanOrEqual(2);
    expect(daemon.requestsOf('snapshot').length).toBeGreaterThan(snapshotsBefore);
  });

  test('an overflow line drops the connection and a new one starts over', async () => {
    const { daemon, store, manager } = setup();
    await manager.start();
    const first = daemon.client;
    first.emit({ type: 'overflow' });
    expect(first.closed).toBe(true);
    await until(store, (s) => s.connection.kind === 'live' && daemon.clients.length === 2);
    expect(daemon.client).not.toBe(first);
  });

  test('breaker events are applied at once and bring a fresh snapshot, at most one per interval', async () => {
    const { daemon, store, manager } = setup({ resnapshotIntervalMs: 300 });
    await manager.start();
    await waitForRequests(daemon, 'snapshot', 2); // the one after subscribe
    const before = daemon.requestsOf('snapshot').length;
    const now = Date.now();
    for (let i = 0; i < 20; i += 1) {
      daemon.emit(breakerEvent({ ts: now + i, action: 'extended', scope: 'seat_rate_limit', seat: 'work-max', until: now + 60_000 }));
    }
    await until(store, (s) => s.seats.find((x) => x.id === 'work-max')!.breakers.length === 1);
    await waitForRequests(daemon, 'snapshot', before + 1);
    // the 20 events cost one snapshot (two if the burst straddled the in-flight one), not 20
    expect(daemon.requestsOf('snapshot').length - before).toBeLessThanOrEqual(2);
  });

  test('decisions flow into the store', async () => {
    const { daemon, store, manager } = setup();
    await manager.start();
    daemon.emit(failoverDecision(Date.now()));
    const state = await until(store, (s) => s.decisionsReceived === 1);
    expect(state.decisions[0]!.event.attempts).toHaveLength(2);
  });

  test('reset sends exactly what it names and answers as a value', async () => {
    const { daemon, manager } = setup();
    await manager.start();
    expect(await manager.reset({ scope: 'seat', seat: 'work-max' })).toEqual({ ok: true, cleared: 2 });
    expect(await manager.reset({ scope: 'target', seat: 'work-max', model: 'claude-opus-4-1' })).toEqual({ ok: true, cleared: 2 });
    expect(await manager.reset({ scope: 'all' })).toEqual({ ok: true, cleared: 2 });
    expect(await manager.reset({ scope: 'seat', seat: 'nobody' })).toEqual({
      ok: false,
      code: 'unknown_seat',
      message: 'unknown seat nobody',
    });
    expect(daemon.requestsOf('reset').map((r) => r.args)).toEqual([
      { seat: 'work-max' },
      { seat: 'work-max', model: 'claude-opus-4-1' },
      undefined,
      { seat: 'nobody' },
    ]);
  });

  test('reset while disconnected sends nothing', async () => {
    const { daemon, store, manager } = setup();
    await manager.start();
    daemon.stop();
    await until(store, (s) => s.connection.kind === 'disconnected');
    expect(await manager.reset({ scope: 'all' })).toMatchObject({ ok: false, code: 'disconnected' });
    expect(daemon.requestsOf('reset')).toHaveLength(0);
  });
});
