import { execFile } from 'node:child_process';
import type { BreakerAction, BreakerEvent } from '@routeplane/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type EventPredicate, isBreaker } from '../helpers/events.js';
import { respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { scrape } from '../metrics/scrape.js';
import { openai } from '../signals/fixtures.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, firstSeat, startTeam, type Team } from './team.js';

/**
 * Probes and the other breaker kinds across daemons: a probe's outcome reaches every daemon, an unreached
 * claim is given back for all, and each daemon counts only its own probes
 * (counters are not shared). Quota, key_rejected and provider breakers are
 * shared like credit ones; a quota's Redis key outlives its deadline on purpose.
 */

const MAX_COOLDOWN_SECS = 120;

let redis: RedisServer;
let team: Team;
beforeAll(async () => {
  redis = await startRedis();
  team = await startTeam(redis, { influence: { max_cooldown_secs: MAX_COOLDOWN_SECS } });
  await allInStep(team.daemons);
});
afterAll(async () => {
  await team.close();
  await redis.stop();
});
afterEach(async () => {
  team.a.setDefault(respond.openaiChat());
  team.b.setDefault(respond.openaiChat());
  team.daemons[0]!.context.influence.reset();
  await everyone((d) => expect(d.context.influence.breakers()).toEqual([]));
});

function everyone(check: (d: TestDaemon) => void): Promise<void> {
  return vi.waitFor(() => team.daemons.forEach(check), { timeout: 10_000, interval: 10 });
}

/** A breaker event for `key` made by daemon `by`. */
function madeBy(action: BreakerAction, key: string, by: TestDaemon): EventPredicate<BreakerEvent> {
  return (e): e is BreakerEvent => isBreaker(action)(e) && e.key === key && e.origin === by.context.daemonId;
}

function trio(): [TestDaemon, TestDaemon, TestDaemon] {
  return team.daemons as [TestDaemon, TestDaemon, TestDaemon];
}

function redisCli(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('redis-cli', ['-p', String(redis.port), '--raw', ...args], (err, out) => (err ? reject(err) : resolve(out.trim()))),
  );
}

/** Each daemon's `routeplane_probes_total` for one target and result. */
async function probesCounted(seat: string, result: 'ok' | 'failed' | 'released'): Promise<number[]> {
  const out: number[] = [];
  for (const d of team.daemons) out.push((await scrape(d)).sum('routeplane_probes_total', { seat, model: '', result }));
  return out;
}

describe('probes across daemons', () => {
  it('a probe that succeeds on one daemon clears the breaker on all; only that daemon counts the probe', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('open'));
    expect(charlie.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('probe_ready'));

    const before = team.a.requests.length;
    const res = await bravo.post(CHAT, chatBody());
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(team.a.requests.length).toBe(before + 1);
    for (const d of [alpha, charlie]) {
      const e = await d.events.take(madeBy('cleared', 'credit:a', bravo));
      expect(e.reason).toBe('probe succeeded');
    }
    await everyone((d) => expect(firstSeat(d)).toBe('a'));
    expect(await redisCli('EXISTS', `${team.prefix}b:credit:a`, `${team.prefix}c:credit:a`)).toBe('0');
    // every daemon saw the claim and the clear; only the one that probed counts it
    expect(await probesCounted('a', 'ok')).toEqual([0, 1, 0]);
  });

  it('a claim whose request never reached the target (an earlier one served) is given back for every daemon', async () => {
    const [alpha, bravo, charlie] = trio();
    // seat b (second in the chain) runs out of credit while a is failing once
    team.a.enqueue(respond.status(500));
    team.b.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:b')?.phase).toBe('open'));
    expect(alpha.context.influence.probe('b')).toEqual({ ok: true, made_ready: 1 });
    await everyone((d) => expect(breakerOn(d, 'credit:b')?.phase).toBe('probe_ready'));

    // charlie's request claims b's probe, but a (tried first, at its configured place) serves it
    const before = team.b.requests.length;
    const res = await charlie.post(CHAT, chatBody());
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(team.b.requests.length).toBe(before);
    await charlie.events.take(madeBy('probe_claimed', 'credit:b', charlie));
    for (const d of [alpha, bravo]) {
      const e = await d.events.take(madeBy('probe_ready', 'credit:b', charlie));
      expect(e.reason).toBe('probe not reached');
    }
    await everyone((d) => expect(breakerOn(d, 'credit:b')).toMatchObject({ phase: 'probe_ready', claimed_at: null }));
    expect(await redisCli('EXISTS', `${team.prefix}c:credit:b`)).toBe('0');
    expect(await probesCounted('b', 'released')).toEqual([0, 0, 1]);

    // given back, the probe is anyone's: the next request on another daemon claims it again
    team.a.enqueue(respond.status(500));
    const next = await bravo.post(CHAT, chatBody());
    expect(next.headers.get('x-routeplane-target')).toBe('b/model-b');
    await everyone((d) => expect(breakerOn(d, 'credit:b')).toBeUndefined());
    expect(await probesCounted('b', 'ok')).toEqual([0, 1, 0]);
  });

  it('a probe that fails on one daemon re-trips the breaker everywhere; only that daemon counts it failed', async () => {
    const [alpha, bravo] = trio();
    team.a.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('open'));
    expect(alpha.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('probe_ready'));
    const failedBefore = await probesCounted('a', 'failed');
    team.a.enqueue(respond.status(402));
    await bravo.post(CHAT, chatBody());
    await everyone((d) => expect(breakerOn(d, 'credit:a')).toMatchObject({ phase: 'open', failed_probes: 1 }));
    const failed = await probesCounted('a', 'failed');
    expect(failed.map((n, i) => n - failedBefore[i]!)).toEqual([0, 1, 0]);
  });
});

describe('every kind of breaker is shared', () => {
  it('a quota (Codex usage limit) on one daemon holds the seat on all until its reset', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.json(429, JSON.parse(openai.codexUsageLimitInSecondsOnly)));
    const sentAt = Date.now();
    await alpha.post(CHAT, chatBody());
    await bravo.events.take(madeBy('tripped', 'quota:a', alpha));
    await everyone((d) => expect(breakerOn(d, 'quota:a')).toMatchObject({ kind: 'quota', scope: 'seat', phase: 'open' }));
    const until = breakerOn(charlie, 'quota:a')!.until!;
    // resets_in_seconds 13872, from when the answer was read
    expect(until).toBeGreaterThanOrEqual(sentAt + 13_872_000);
    expect(until).toBeLessThan(Date.now() + 13_872_000 + 1_000);
    for (const d of team.daemons) expect(breakerOn(d, 'quota:a')?.until).toBe(until);
    expect(firstSeat(charlie)).toBe('b');

    // The Redis key of a quota outlives its deadline by max_cooldown_secs. The spec's expiry
    // list says "a rate limit or quota: its deadline", but a quota is not over at its deadline:
    // it goes probe-ready and takes one probe, like a credit breaker at its
    // probe-ready time. Expiring the key at the deadline would drop the shared breaker exactly
    // when the daemons must agree on that one probe — so the key lives as long as a credit
    // breaker's would, deliberately.
    const expiresAt = Number(await redisCli('PEXPIRETIME', `${team.prefix}b:quota:a`));
    expect(expiresAt).toBe(Math.floor(until + MAX_COOLDOWN_SECS * 1000));
  });

  it('a rejected key (401 invalid_api_key) on one daemon trips the seat on all', async () => {
    const [alpha, bravo, charlie] = trio();
    team.a.enqueue(respond.json(401, JSON.parse(openai.invalidKey('sk-proj-****wxyz'))));
    await bravo.post(CHAT, chatBody());
    for (const d of [alpha, charlie]) await d.events.take(madeBy('tripped', 'key_rejected:a', bravo));
    await everyone((d) => expect(breakerOn(d, 'key_rejected:a')).toMatchObject({ kind: 'key_rejected', phase: 'open' }));
    await everyone((d) => expect(firstSeat(d)).toBe('b'));
  });
});

describe('the provider-wide breaker is shared', () => {
  it('model errors over two seats of one upstream, counted across daemons, trip the provider layer on every daemon', async () => {
    const shared = await startFakeUpstream(respond.status(500));
    const far = await startFakeUpstream(respond.openaiChat());
    const daemons: TestDaemon[] = [];
    try {
      for (const name of ['one', 'two']) {
        daemons.push(
          await startTestDaemon({
            seats: [
              { id: 'one', provider: 'openai', upstream: shared },
              { id: 'two', provider: 'openai', upstream: shared },
              { id: 'far', provider: 'openai', upstream: far },
            ],
            routes: [
              {
                model: 'gpt',
                chain: [
                  { seat: 'one', model: 'm' },
                  { seat: 'two', model: 'm' },
                  { seat: 'far', model: 'm' },
                ],
              },
            ],
            influence: {
              enabled: true,
              cooldown_secs: 60,
              shared: { redis_url: redis.url, key_prefix: `${team.prefix}provider:`, timeout_ms: 500 },
            },
            daemonId: `${name}-provider:${process.pid}`,
            decisionLog: false,
          }),
        );
      }
      await allInStep(daemons);
      const [first, second] = daemons as [TestDaemon, TestDaemon];
      // first: one and two fail (provider streak 2); second: one fails again (3, over two seats)
      expect((await first.post(CHAT, chatBody())).headers.get('x-routeplane-target')).toBe('far/m');
      await vi.waitFor(() => expect(second.context.influence.seats()[0]?.models[0]?.streak).toBe(1), { timeout: 10_000 });
      expect((await second.post(CHAT, chatBody())).headers.get('x-routeplane-target')).toBe('far/m');
      const provider = `errors:provider:${shared.url}/m`;
      await first.events.take(madeBy('tripped', provider, second));
      for (const d of daemons) {
        expect(d.context.influence.breakers().find((b) => b.key === provider)).toMatchObject({ scope: 'provider', seat: null, model: 'm' });
        expect(d.context.influence.routes()[0]?.chain.map((t) => t.seat)).toEqual(['far', 'one', 'two']);
      }
    } finally {
      await Promise.all(daemons.map((d) => d.close()));
      await Promise.all([shared.close(), far.close()]);
    }
  });
});
