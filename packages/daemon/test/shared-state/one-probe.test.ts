import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { isBreaker } from '../helpers/events.js';
import { deferred, respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, startTeam, type Team } from './team.js';

/**
 * Exactly one probe in flight per breaker across all daemons.
 * Sizes: 60 concurrent requests (20 per daemon) per round, 20 rounds (1,200 requests). The first
 * round follows the real cooldown; the others are made probe-ready by the `probe`
 * command, given to each daemon in turn (which also shows it applies to all).
 */
const ROUNDS = 20;
const PER_ROUND = 60;

let redis: RedisServer;
let team: Team;
beforeAll(async () => {
  redis = await startRedis();
  team = await startTeam(redis, { influence: { cooldown_secs: 0.5, max_cooldown_secs: 120 } });
  await allInStep(team.daemons);
});
afterAll(async () => {
  await team.close();
  await redis.stop();
});

function everyone(check: (d: TestDaemon) => void): Promise<void> {
  return vi.waitFor(() => team.daemons.forEach(check), { timeout: 10_000, interval: 10 });
}

describe('one probe cluster-wide', () => {
  it(`after the cooldown, ${PER_ROUND} concurrent requests over three daemons: exactly one reaches the recovering seat (${ROUNDS} rounds)`, async () => {
    const [alpha] = team.daemons as [TestDaemon];
    team.a.enqueue(respond.status(402));
    expect((await alpha.post(CHAT, chatBody())).status).toBe(200);
    await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('open'));

    for (let round = 0; round < ROUNDS; round++) {
      if (round === 0) {
        // the cooldown passes on every daemon by its own clock
        for (const d of team.daemons) await d.events.take(isBreaker('probe_ready', 'a'));
      } else {
        const giver = team.daemons[round % team.daemons.length]!;
        expect(giver.context.influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
      }
      await everyone((d) => expect(breakerOn(d, 'credit:a')?.phase).toBe('probe_ready'));

      // the probe that reaches seat a is held there until every other request is done
      const release = deferred<void>();
      let reached = 0;
      team.a.setDefault((req, res) => {
        reached++;
        void release.promise.then(() => respond.status(402)(req, res));
      });
      let finished = 0;
      const requests = Array.from({ length: PER_ROUND }, (_, i) =>
        team.daemons[i % team.daemons.length]!.post(CHAT, chatBody()).then(async (res) => {
          await res.arrayBuffer();
          finished++;
          return res.status;
        }),
      );
      await vi.waitFor(() => expect(finished + reached).toBe(PER_ROUND), { timeout: 15_000, interval: 5 });
      expect(reached, `round ${round}: requests that reached the recovering seat`).toBe(1);
      release.resolve();
      expect(await Promise.all(requests)).toEqual(Array(PER_ROUND).fill(200));
      // the failed probe re-tripped the seat everywhere
      await everyone((d) => expect(breakerOn(d, 'credit:a')).toMatchObject({ phase: 'open', failed_probes: round + 1 }));
    }
  });
});
