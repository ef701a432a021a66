import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, firstSeat, startTeam, type Team } from './team.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

describe('a transition on one daemon reaches the others', () => {
  let team: Team;
  beforeAll(async () => {
    team = await startTeam(redis);
    await allInStep(team.daemons);
  });
  afterAll(() => team.close());

  it('hello, snapshot and status carry the redis store, ok, with three daemons', async () => {
    const [alpha] = team.daemons;
    const info = alpha!.context.store.info();
    expect(info).toMatchObject({ kind: 'redis', state: 'ok', daemons: 3 });
    const status = (await (await fetch(`${alpha!.url}/status`)).json()) as { daemon: { store: unknown } };
    expect(status.daemon.store).toMatchObject({ kind: 'redis', state: 'ok', daemons: 3 });
  });

  it('a 402 on one daemon: the others order that seat last, with the first daemon as origin', async () => {
    const [alpha, bravo, charlie] = team.daemons as [(typeof team.daemons)[0], (typeof team.daemons)[0], (typeof team.daemons)[0]];
    team.a.enqueue(respond.status(402));
    const res = await alpha.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    for (const d of [bravo, charlie]) {
      const e = await d.events.take(isBreaker('tripped', 'a'));
      expect(e.key).toBe('credit:a');
      expect(e.origin).toBe(alpha.context.daemonId);
      expect(firstSeat(d)).toBe('b');
    }
    // the next request on bravo goes to b first: seat a sees nothing
    const before = team.a.requests.length;
    const served = await bravo.post(CHAT, chatBody());
    expect(served.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(team.a.requests.length).toBe(before);
    expect(breakerOn(charlie, 'credit:a')).toMatchObject({ kind: 'credit', phase: 'open' });
  });
});
