/**
 * Three daemons sharing one Redis, as a team would run them: in one process
 * here, each with its own id, port, socket and decision log, all over the
 * same two seats (`a` first, then `b`, route `gpt`), whose fake upstreams
 * are shared like the real seats would be.
 *
 *   const redis = await startRedis();
 *   const team = await startTeam(redis);
 *   await team.daemons[0].post(CHAT, chatBody());
 *   await team.close(); await redis.stop();
 */
import type { ConfigInput } from '@routeplane/shared';
import { expect, vi } from 'vitest';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import type { RedisServer } from './redis-server.js';

export interface Team {
  readonly daemons: TestDaemon[];
  readonly a: FakeUpstream;
  readonly b: FakeUpstream;
  readonly prefix: string;
  close(): Promise<void>;
}

let teams = 0;

export interface TeamOptions {
  count?: number;
  /** a prefix of its own per team by default, so tests on one Redis never see each other */
  prefix?: string;
  influence?: Omit<NonNullable<ConfigInput['influence']>, 'shared' | 'enabled'>;
  shared?: { timeout_ms?: number; password_env?: string };
  env?: Record<string, string>;
  /** keep each daemon's decision log (in its temporary directory) */
  decisionLog?: boolean;
  /** upstreams to reuse (a second team over the same seats) */
  upstreams?: { a: FakeUpstream; b: FakeUpstream };
}

export async function startTeam(redis: RedisServer, opts: TeamOptions = {}): Promise<Team> {
  const n = ++teams;
  const prefix = opts.prefix ?? `rp-test-${process.pid}-${n}:`;
  const a = opts.upstreams?.a ?? (await startFakeUpstream(respond.openaiChat()));
  const b = opts.upstreams?.b ?? (await startFakeUpstream(respond.openaiChat()));
  const daemons: TestDaemon[] = [];
  const names = ['alpha', 'bravo', 'charlie', 'delta'];
  try {
    for (let i = 0; i < (opts.count ?? 3); i++) {
      daemons.push(
        await startTestDaemon({
          seats: [
            { id: 'a', provider: 'openai', upstream: a },
            { id: 'b', provider: 'openai', upstream: b },
          ],
          routes: [
            {
              model: 'gpt',
              chain: [
                { seat: 'a', model: 'model-a' },
                { seat: 'b', model: 'model-b' },
              ],
            },
          ],
          influence: {
            cooldown_secs: 60,
            max_cooldown_secs: 120,
            ...opts.influence,
            enabled: true,
            shared: {
              redis_url: redis.url,
              key_prefix: prefix,
              timeout_ms: opts.shared?.timeout_ms ?? 500,
              password_env: opts.shared?.password_env ?? null,
            },
          },
          env: opts.env,
          daemonId: `${names[i] ?? `d${i}`}-${n}:${process.pid}`,
          decisionLog: opts.decisionLog ? {} : false,
        }),
      );
    }
  } catch (err) {
    await Promise.all(daemons.map((d) => d.close()));
    throw err;
  }
  return {
    daemons,
    a,
    b,
    prefix,
    async close() {
      await Promise.all(daemons.map((d) => d.close()));
      if (opts.upstreams === undefined) await Promise.all([a.close(), b.close()]);
    },
  };
}

/** Every daemon's store is `ok` and counts `daemons` members. */
export async function allInStep(daemons: readonly TestDaemon[], count = daemons.length): Promise<void> {
  await vi.waitFor(
    () => {
      for (const d of daemons) expect(d.context.store.info()).toMatchObject({ kind: 'redis', state: 'ok', daemons: count });
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** The first target `gpt` would try on this daemon now. */
export function firstSeat(d: TestDaemon): string | undefined {
  return d.context.influence.routes().find((r) => r.model === 'gpt')?.chain[0]?.seat;
}

/** The breaker under `key` as this daemon holds it now. */
export function breakerOn(d: TestDaemon, key: string) {
  return d.context.influence.breakers().find((b) => b.key === key);
}
