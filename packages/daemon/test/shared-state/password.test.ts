import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { controlLines } from '../helpers/control-lines.js';
import { respond } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody } from '../helpers/two-seats.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { allInStep, breakerOn, startTeam, type Team } from './team.js';

/**
 * The Redis password never appears anywhere: not in a
 * log line, an event, a control reply, `/status`, a decision or an error —
 * neither when it is right nor when Redis refuses it.
 */
const PASSWORD = `rp-redis-pw-${randomUUID()}`;
const WRONG = `rp-wrong-pw-${randomUUID()}`;

let redis: RedisServer;
let team: Team;
let refused: Team;
beforeAll(async () => {
  redis = await startRedis({ password: PASSWORD });
  team = await startTeam(redis, { env: { RP_REDIS_PW: PASSWORD }, shared: { password_env: 'RP_REDIS_PW' }, decisionLog: true });
  refused = await startTeam(redis, { count: 1, env: { RP_REDIS_PW: WRONG }, shared: { password_env: 'RP_REDIS_PW' }, decisionLog: true });
});
afterAll(async () => {
  await Promise.all([team.close(), refused.close()]);
  await redis.stop();
});

async function everything(d: TestDaemon): Promise<string> {
  const replies = await controlLines(d.daemon.socketPath, [
    { id: 1, cmd: 'hello' },
    { id: 2, cmd: 'snapshot' },
    { id: 3, cmd: 'status' },
  ]);
  const status = await (await fetch(`${d.url}/status`)).text();
  const decisions = d.decisionLogPath === null ? '' : await readFile(d.decisionLogPath, 'utf8').catch(() => '');
  return [...d.logs, JSON.stringify(d.events.events), ...replies, status, decisions].join('\n');
}

describe('the Redis password', () => {
  it('with the right password the team shares state, and the password is in no output', async () => {
    await allInStep(team.daemons);
    const [alpha, bravo] = team.daemons as [TestDaemon, TestDaemon];
    team.a.enqueue(respond.status(402));
    await alpha.post(CHAT, chatBody());
    await vi.waitFor(() => expect(breakerOn(bravo, 'credit:a')).toBeDefined(), { timeout: 10_000 });
    bravo.context.influence.probe('a');
    bravo.context.influence.reset();
    for (const d of team.daemons) {
      const out = await everything(d);
      expect(out).toContain('shared breaker store ok');
      expect(out).not.toContain(PASSWORD);
    }
  });

  it('a password Redis refuses leaves the daemon degraded, saying so without either password', async () => {
    const [d] = refused.daemons as [TestDaemon];
    await vi.waitFor(() => expect(d.logs.join('\n')).toMatch(/shared breaker store degraded/), { timeout: 10_000 });
    expect(d.context.store.info()).toMatchObject({ kind: 'redis', state: 'degraded' });
    // it still routes, from its own state
    expect((await d.post(CHAT, chatBody())).status).toBe(200);
    const out = await everything(d);
    expect(out).not.toContain(WRONG);
    expect(out).not.toContain(PASSWORD);
  });
});
