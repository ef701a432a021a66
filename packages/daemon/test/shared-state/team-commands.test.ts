import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BreakerAction, BreakerEvent } from '@routeplane/shared';
import { type EventPredicate, isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, firstSeat, startTeam, type Team } from './team.js';

let redis: RedisServer;
let team: Team;
beforeAll(async () => {
  redis = await startRedis();
  team = await startTeam(redis);
  await allInStep(team.daemons);
});
afterAll(async () => {
  await team.close();
  await redis.stop();
});
afterEach(async () => {
  // every test starts from a clean team: a reset on one daemon clears them all
  team.daemons[0]!.context.influence.reset();
  await everyone((d) => expect(d.context.influence.breakers()).toEqual([]));
});

function everyone(check: (d: TestDaemon) => void): Promise<void> {
  return vi.waitFor(() => team.daemons.forEach(check), { timeout: 10_000, interval: 10 });
}

/** A breaker event for `key` that came from another daemon. */
function fromOther(action: BreakerAction, key: string, from: TestDaemon): EventPredicate<BreakerEvent> {
  return (e): e is BreakerEvent => isBreaker(action)(e) && e.key === key && e.origin === from.context.daemonId;
}

function trio(): [TestDaemon, TestDaemon, TestDaemon] {
  return team.daemons as [TestDaemon, TestDaemon, TestDaemon];
}

describe('extend-only across daemons', () => {
  for (const [first, second] of [
    ['40', '5'],
    ['5', '40'],
  ]) {
    it(`two daemons get 429s at once (Retry-After ${first} s, then ${second} s): every daemon keeps the later deadline`, async () => {
      const [alpha, bravo] = trio();
      team.a.enqueue(respond.rateLimited(first!), respond.rateLimited(second!));
      const answers = await Promise.all([alpha.post(CHAT, chatBody()), bravo.post(CHAT, chatBody())]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      await everyone((d) => expect(breakerOn(d, 'rate_limit:a')?.cooldown_ms).toBe(40_000));
      const untils = team.daemons.map((d) => breakerOn(d, 'rate_limit:a')?.until);
      expect(new Set(untils).size).toBe(1);
    });
  }

  it('a shorter deadline after a longer one, on another daemon, shortens nothing', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.rateLimited('40'));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'rate_limit:a')?.cooldown_ms).toBe(40_000));
    const until = breakerOn(charlie, 'rate_limit:a')?.until;
    // bravo now tries a last: b fails, a answers with a shorter wait
    team.b.enqueue(respond.status(500));
    team.a.enqueue(respond.rateLimited('5'));
    const res = await bravo.post(CHAT, chatBody());
    expect(res.status).toBe(429);
    // a later change (seat b's failure) has gone round, so the shorter wait would have too
    await everyone((d) => expect(d.context.influence.seats().find((s) => s.id === 'b')?.models[0]?.streak).toBe(1));
    for (const d of team.daemons) expect(breakerOn(d, 'rate_limit:a')).toMatchObject({ until, cooldown_ms: 40_000 });
  });
});

describe('commands given to any daemon apply to all', () => {
  it('reset on one daemon clears the breaker on every daemon, announced with its origin', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:a')).toBeDefined());
    expect(charlie.context.influence.reset('a')).toEqual({ ok: true, cleared: 1 });
    for (const d of [alpha, bravo]) {
      const e = await d.events.take(fromOther('reset', 'credit:a', charlie));
      expect(e).toMatchObject({ breaker: null, reason: 'reset' });
      expect(firstSeat(d)).toBe('a');
    }
  });

  it('probe on one daemon makes the breaker probe-ready on every daemon', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('open'));
    expect(bravo.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    for (const d of [alpha, charlie]) {
      const e = await d.events.take(fromOther('probe_ready', 'credit:a', bravo));
      expect(e).toMatchObject({ reason: 'probe now', breaker: { phase: 'probe_ready' } });
    }
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('probe_ready'));
  });

  it('a streak of model errors counts across daemons', async () => {
    const [alpha, bravo, charlie] = trio();
    // threshold 3: one 500 on each daemon trips the target for all
    for (const d of [alpha, bravo]) {
      team.a.enqueue(respond.status(500));
      await d.post(CHAT, chatBody());
      await everyone((x) => expect(x.context.influence.seats()[0]?.models[0]?.streak).toBeGreaterThan(0));
    }
    await everyone((x) => expect(x.context.influence.seats()[0]?.models[0]?.streak).toBe(2));
    team.a.enqueue(respond.status(500));
    await charlie.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'errors:a/model-a')?.kind).toBe('errors'));
  });
});

describe('key prefixes', () => {
  it('daemons on the same Redis with another prefix share nothing', async () => {
    const [alpha] = trio();
    const other = await startTeam(redis, { count: 1, prefix: 'another-team:', upstreams: { a: team.a, b: team.b } });
    try {
      await allInStep(other.daemons, 1);
      const [stranger] = other.daemons as [TestDaemon];
      team.a.enqueue(respond.status(402));
      await alpha.post(CHAT, chatBody());
      await everyone((d) => expect(breakerOn(d, 'credit:a')).toBeDefined());
      // the stranger's own trip goes round its own prefix; by then the team's would have reached it
      team.a.enqueue(respond.status(500));
      team.b.enqueue(respond.status(402));
      await stranger.post(CHAT, chatBody());
      await stranger.events.take(isBreaker('tripped', 'b'));
      expect(breakerOn(stranger, 'credit:a')).toBeUndefined();
      expect(stranger.context.store.info().daemons).toBe(1);
      const keys = await redisKeys(redis.port);
      expect(keys.filter((k) => k.startsWith('another-team:b:'))).toEqual(['another-team:b:credit:b']);
      expect(keys.filter((k) => k.startsWith(`${team.prefix}b:`))).toContain(`${team.prefix}b:credit:a`);
    } finally {
      await other.close();
    }
  });
});

async function redisKeys(port: number): Promise<string[]> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve, reject) =>
    execFile('redis-cli', ['-p', String(port), '--raw', 'KEYS', '*'], (err, out) =>
      err ? reject(err) : resolve(out.split('\n').filter(Boolean).sort()),
    ),
  );
}
