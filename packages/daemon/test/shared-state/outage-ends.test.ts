import type { BreakerEvent } from '@routeplane/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, firstSeat, startTeam, type Team } from './team.js';

/**
 * A breaker ended while Redis was away stays ended when it comes back
 * (a reset given to any daemon applies to all; a daemon whose Redis is back
 * pushes its active local breakers, then reads the shared state). Another daemon that held the breaker through the outage pushes it
 * back; the daemon that ended it gives its end again, for that trip only — a
 * trip made later, during the outage, stands.
 */

let redis: RedisServer;
let team: Team;
beforeAll(async () => {
  redis = await startRedis();
  team = await startTeam(redis, { count: 2, shared: { timeout_ms: 200 } });
  await allInStep(team.daemons);
});
afterAll(async () => {
  await team.close();
  await redis.stop();
});
afterEach(async () => {
  team.daemons[0]!.context.influence.reset();
  await everyone((d) => expect(d.context.influence.breakers()).toEqual([]));
});

function everyone(check: (d: TestDaemon) => void): Promise<void> {
  return vi.waitFor(() => team.daemons.forEach(check), { timeout: 10_000, interval: 10 });
}

function pair(): [TestDaemon, TestDaemon] {
  return team.daemons as [TestDaemon, TestDaemon];
}

/** Seat a out of credit, tripped by alpha and shared with bravo. */
async function creditTripShared(alpha: TestDaemon): Promise<number> {
  team.a.enqueue(respond.status(402));
  await alpha.post(CHAT, chatBody());
  await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('open'));
  const since = breakerOn(alpha, 'credit:a')!.since;
  for (const d of team.daemons) expect(breakerOn(d, 'credit:a')?.since).toBe(since);
  return since;
}

async function redisAway(): Promise<void> {
  await redis.kill();
  await everyone((d) => expect(d.context.store.info().state).toBe('degraded'));
}

async function redisBack(): Promise<void> {
  await redis.restart();
  await allInStep(team.daemons);
}

/** A later change goes round (seat b trips on bravo, reaches alpha): what was due to arrive before it has. */
async function aLaterChangeWentRound(): Promise<void> {
  const [alpha, bravo] = pair();
  team.a.enqueue(respond.status(500));
  team.b.enqueue(respond.status(402));
  await bravo.post(CHAT, chatBody());
  await alpha.events.take((e): e is BreakerEvent => isBreaker('tripped', 'b')(e) && e.origin === bravo.context.daemonId);
}

describe('ends made while Redis was away', () => {
  it('a reset on one daemon during the outage ends the breaker on every daemon once Redis is back', async () => {
    const [alpha, bravo] = pair();
    await creditTripShared(alpha);
    await redisAway();
    expect(alpha.context.influence.reset('a')).toEqual({ ok: true, cleared: 1 });
    // bravo cannot hear of it: it keeps the trip through the outage
    expect(breakerOn(bravo, 'credit:a')).toBeDefined();

    await redisBack();
    await everyone((d) => expect(breakerOn(d, 'credit:a')).toBeUndefined());
    await aLaterChangeWentRound();
    for (const d of team.daemons) {
      expect(breakerOn(d, 'credit:a')).toBeUndefined();
      expect(firstSeat(d)).toBe('a');
    }
    // the daemon that kept it was told by the one that reset it
    const end = bravo.events.all(isBreaker('reset', 'a')).at(-1);
    expect(end).toMatchObject({ key: 'credit:a', origin: alpha.context.daemonId, breaker: null });
  });

  it('a trip another daemon made later, during the outage, stands', async () => {
    const [alpha, bravo] = pair();
    const first = await creditTripShared(alpha);
    await redisAway();
    expect(alpha.context.influence.reset('a')).toEqual({ ok: true, cleared: 1 });
    // bravo's own reset, then a fresh 402 on bravo: a newer trip of the same breaker
    expect(bravo.context.influence.reset('a')).toEqual({ ok: true, cleared: 1 });
    team.a.enqueue(respond.status(402));
    await bravo.post(CHAT, chatBody());
    const later = breakerOn(bravo, 'credit:a')!.since;
    expect(later).toBeGreaterThan(first);

    await redisBack();
    await everyone((d) => expect(breakerOn(d, 'credit:a')).toMatchObject({ kind: 'credit', since: later }));
    await aLaterChangeWentRound();
    for (const d of team.daemons) expect(breakerOn(d, 'credit:a')).toMatchObject({ since: later });
  });

  it('a reset during the outage on the daemon that did not trip it: the same, the other way round', async () => {
    const [alpha, bravo] = pair();
    await creditTripShared(alpha);
    await redisAway();
    expect(bravo.context.influence.reset('a')).toEqual({ ok: true, cleared: 1 });
    await redisBack();
    await everyone((d) => expect(breakerOn(d, 'credit:a')).toBeUndefined());
    await aLaterChangeWentRound();
    for (const d of team.daemons) expect(breakerOn(d, 'credit:a')).toBeUndefined();
  });
});
