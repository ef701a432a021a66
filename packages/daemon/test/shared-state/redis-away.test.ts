import type { StoreEvent } from '@routeplane/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EventPredicate, isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { scrape } from '../metrics/scrape.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, startTeam, type Team } from './team.js';

/**
 * One daemon whose Redis is away: not there when it starts, stalled (a process that accepts nothing
 * more: SIGSTOP), or killed while a probe is due. Routing goes on with the
 * daemon's own state and never fails because of Redis; the store says
 * `degraded` (and `/metrics` says `routeplane_store_up 0`); a probe claim
 * that cannot be made in Redis is not made at all.
 */

let redis: RedisServer;
let running = true;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
  if (!running) {
    await redis.restart();
    running = true;
  }
});
afterAll(async () => {
  await redis.stop();
});

async function redisDown(): Promise<void> {
  await redis.kill();
  running = false;
}

async function redisUp(): Promise<void> {
  await redis.restart();
  running = true;
}

async function oneDaemon(timeoutMs = 100): Promise<{ team: Team; d: TestDaemon }> {
  const team = await startTeam(redis, { count: 1, shared: { timeout_ms: timeoutMs } });
  cleanups.push(() => team.close());
  return { team, d: team.daemons[0]! };
}

const storeState =
  (state: 'ok' | 'degraded'): EventPredicate<StoreEvent> =>
  (e): e is StoreEvent =>
    e.type === 'store' && e.store.state === state;

/** `ok` again after that outage (the start's own `ok` may be among the events too) */
const okAfter =
  (outage: StoreEvent): EventPredicate<StoreEvent> =>
  (e): e is StoreEvent =>
    storeState('ok')(e) && e.seq > outage.seq;

async function served(d: TestDaemon): Promise<string | null> {
  const res = await d.post(CHAT, chatBody());
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return res.headers.get('x-routeplane-target');
}

describe('Redis not there at start', () => {
  it('the daemon starts degraded, serves, says store_up 0; once a redis-server listens there it is ok (store_up 1)', async () => {
    await redisDown();
    const { d } = await oneDaemon();
    expect(d.context.store.info()).toMatchObject({ kind: 'redis', state: 'degraded', daemons: 1 });
    expect(d.logs.filter((l) => l.includes('shared breaker store degraded'))).toHaveLength(1);
    expect(await served(d)).toBe('a/model-a');
    expect((await scrape(d)).value('routeplane_store_up')).toBe(0);

    await redisUp();
    await d.events.take(storeState('ok'));
    expect(d.context.store.info().state).toBe('ok');
    expect((await scrape(d)).value('routeplane_store_up')).toBe(1);
    expect(await served(d)).toBe('a/model-a');
  });
});

describe('Redis stalled', () => {
  it('past timeout_ms the operation is skipped: requests still succeed, the daemon says degraded, and ok again once Redis answers', async () => {
    const { team, d } = await oneDaemon();
    await allInStep([d], 1);
    process.kill(redis.pid, 'SIGSTOP');
    let stopped = true;
    cleanups.push(() => {
      if (stopped) process.kill(redis.pid, 'SIGCONT');
    });

    // a trip is written to Redis from the request path: it cannot be, and the request does not wait for it
    team.a.enqueue(respond.status(402));
    expect(await served(d)).toBe('b/model-b');
    const stall = await d.events.take(storeState('degraded'));
    expect(d.context.store.info().state).toBe('degraded');
    expect(breakerOn(d, 'credit:a')).toMatchObject({ kind: 'credit', phase: 'open' });
    for (let i = 0; i < 5; i++) expect(await served(d)).toBe('b/model-b');
    expect((await scrape(d)).value('routeplane_store_up')).toBe(0);

    process.kill(redis.pid, 'SIGCONT');
    stopped = false;
    await d.events.take(okAfter(stall));
    expect(d.context.store.info().state).toBe('ok');
    await allInStep([d], 1);
  });
});

describe('a probe while Redis is away', () => {
  it('is not claimed locally instead: the probe-ready seat stays behind, and is probed once Redis is back', async () => {
    const { team, d } = await oneDaemon();
    await allInStep([d], 1);
    team.a.enqueue(respond.status(402));
    expect(await served(d)).toBe('b/model-b');
    expect(d.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    expect(breakerOn(d, 'credit:a')?.phase).toBe('probe_ready');

    await redisDown();
    const outage = await d.events.take(storeState('degraded'));
    const seen = team.a.requests.length;
    for (let i = 0; i < 5; i++) expect(await served(d)).toBe('b/model-b');
    // the target was treated as still tripped: never tried, never claimed
    expect(team.a.requests.length).toBe(seen);
    expect(d.events.all(isBreaker('probe_claimed', 'a'))).toEqual([]);
    expect(breakerOn(d, 'credit:a')).toMatchObject({ phase: 'probe_ready', claimed_at: null });
    // and the snapshot orders it as the requests do: behind, still probe-ready
    expect(d.context.influence.routes()[0]!.chain.map((t) => [t.seat, t.state])).toEqual([
      ['b', 'healthy'],
      ['a', 'probe_ready'],
    ]);

    await redisUp();
    await d.events.take(okAfter(outage));
    expect(d.context.influence.routes()[0]!.chain.map((t) => t.seat)).toEqual(['a', 'b']);
    expect(await served(d)).toBe('a/model-a');
    await d.events.take(isBreaker('cleared', 'a'));
    expect(breakerOn(d, 'credit:a')).toBeUndefined();
  });
});

describe('a probe claim Redis answers too late', () => {
  it('is given back once Redis answers again, so another daemon probes the seat instead of waiting out max_cooldown', async () => {
    const team = await startTeam(redis, { count: 2, shared: { timeout_ms: 100 }, influence: { max_cooldown_secs: 3600 } });
    cleanups.push(() => team.close());
    const [alpha, bravo] = team.daemons as [TestDaemon, TestDaemon];
    await allInStep(team.daemons);
    team.a.enqueue(respond.status(402));
    expect(await served(alpha)).toBe('b/model-b');
    expect(alpha.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    await vi.waitFor(() => expect(breakerOn(bravo, 'credit:a')?.phase).toBe('probe_ready'), { timeout: 10_000, interval: 10 });

    // alpha asks for the claim while Redis is stalled: no answer within timeout_ms, so no probe;
    // the claim script still runs when Redis wakes, and holds the claim for alpha's token
    process.kill(redis.pid, 'SIGSTOP');
    let stopped = true;
    cleanups.push(() => {
      if (stopped) process.kill(redis.pid, 'SIGCONT');
    });
    const seen = team.a.requests.length;
    expect(await served(alpha)).toBe('b/model-b');
    expect(team.a.requests.length).toBe(seen);
    const stall = await alpha.events.take(storeState('degraded'));
    process.kill(redis.pid, 'SIGCONT');
    stopped = false;
    await alpha.events.take(okAfter(stall));

    // given back: bravo's next request probes seat a, and its success clears it everywhere
    await vi.waitFor(() => expect(breakerOn(bravo, 'credit:a')?.phase).toBe('probe_ready'), { timeout: 10_000, interval: 10 });
    expect(await served(bravo)).toBe('a/model-a');
    for (const d of team.daemons) await d.events.take(isBreaker('cleared', 'a'));
  });
});
