import type { Breaker } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, script } from '../../src/store/connection.js';
import { CLAIM, END, PUT, RELEASE, STREAK } from '../../src/store/lua.js';
import { readSharedBreaker, readSharedStreak } from '../../src/store/wire.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { connectScripts } from './script-connection.js';
import { seatBreaker } from '../helpers/seat-breaker.js';

/**
 * The Lua scripts' rules, straight against a real Redis: whatever order two
 * daemons' writes land in, the shared breaker is the same.
 */

const MAX_COOL = 60_000;
let redis: RedisServer;
let conn: Connection;
let n = 0;
let prefix = '';

beforeAll(async () => {
  redis = await startRedis();
  conn = await connectScripts(redis);
});
afterAll(async () => {
  conn.close();
  await redis.stop();
});

function fresh(): void {
  prefix = `scripts-${++n}:`;
}

const NOW = 1_800_000_000_000;

function breaker(over: Partial<Breaker> & Pick<Breaker, 'kind'>): Breaker {
  return seatBreaker(over.kind, NOW, { until: NOW + 1000, cooldown_ms: 1000, ...over });
}

async function put(b: Breaker, action: string, origin: string, opts: { refused?: number; mode?: string; token?: string } = {}) {
  const args = [
    prefix,
    b.key,
    JSON.stringify({ b, o: origin }),
    action,
    'test',
    String(opts.refused ?? 0),
    '0',
    opts.mode ?? 'change',
    String(MAX_COOL),
    opts.token ?? '',
    String(NOW),
  ];
  const out = await conn.run(script(PUT), args, 2000);
  if (!out.ok) throw new Error(out.why);
  return out.value === '' ? null : readSharedBreaker(out.value as string);
}

async function run(lua: string, args: string[]): Promise<unknown> {
  const out = await conn.run(script(lua), [prefix, ...args], 2000);
  if (!out.ok) throw new Error(out.why);
  return out.value;
}

describe('extend-only deadlines, whatever order the writes land in', () => {
  for (const kind of ['rate_limit', 'quota'] as const) {
    it(`${kind}: the later deadline first, then the earlier one — the later stands`, async () => {
      fresh();
      await put(breaker({ kind, until: NOW + 40_000, cooldown_ms: 40_000 }), 'tripped', 'alpha');
      const after = await put(breaker({ kind, until: NOW + 5_000, cooldown_ms: 5_000 }), 'tripped', 'bravo');
      expect(after?.breaker).toMatchObject({ until: NOW + 40_000, cooldown_ms: 40_000 });
      expect(after?.origin).toBe('alpha');
    });

    it(`${kind}: the earlier deadline first, then the later one — extended`, async () => {
      fresh();
      await put(breaker({ kind, until: NOW + 5_000, cooldown_ms: 5_000 }), 'tripped', 'bravo');
      const after = await put(breaker({ kind, until: NOW + 40_000, cooldown_ms: 40_000, since: NOW + 10 }), 'extended', 'alpha');
      // extended, and the rate limit still began when it first began
      expect(after?.breaker).toMatchObject({ until: NOW + 40_000, cooldown_ms: 40_000, since: NOW });
      expect(after?.origin).toBe('alpha');
    });
  }
});

describe('cooldown breakers', () => {
  it('a fresh trip of a breaker another daemon holds resets nothing', async () => {
    fresh();
    await put(breaker({ kind: 'credit', since: NOW, until: NOW + 60_000, failed_probes: 2, cooldown_ms: 60_000 }), 'tripped', 'alpha');
    const after = await put(breaker({ kind: 'credit', since: NOW + 500, until: NOW + 1_500 }), 'tripped', 'bravo');
    expect(after?.breaker).toMatchObject({ since: NOW, until: NOW + 60_000, failed_probes: 2 });
    expect(after?.origin).toBe('alpha');
  });

  it("a failed probe (one more failed probe) replaces the cooldown; an older one's arriving late does not undo it", async () => {
    fresh();
    await put(breaker({ kind: 'credit', until: NOW + 1_000 }), 'tripped', 'alpha');
    const failed = breaker({ kind: 'credit', since: NOW + 2_000, until: NOW + 4_000, cooldown_ms: 2_000, failed_probes: 1 });
    expect((await put(failed, 'probe_failed', 'bravo'))?.breaker).toMatchObject({ failed_probes: 1, until: NOW + 4_000 });
    const late = await put(breaker({ kind: 'credit', phase: 'probe_ready', until: NOW + 1_000 }), 'probe_ready', 'charlie');
    expect(late?.breaker).toMatchObject({ failed_probes: 1, phase: 'open', until: NOW + 4_000 });
  });

  it('counts add up across daemons', async () => {
    fresh();
    await put(breaker({ kind: 'credit' }), 'tripped', 'alpha');
    await put(breaker({ kind: 'credit', refused_count: 2 }), 'refused', 'alpha', { refused: 2 });
    const after = await put(breaker({ kind: 'credit', refused_count: 3 }), 'refused', 'bravo', { refused: 3 });
    expect(after?.breaker.refused_count).toBe(5);
  });

  it('a count or phase change does not bring back a breaker that ended; a push after an outage does', async () => {
    fresh();
    expect(await put(breaker({ kind: 'credit', refused_count: 1 }), 'refused', 'alpha', { refused: 1 })).toBeNull();
    expect(await put(breaker({ kind: 'credit', phase: 'probe_ready' }), 'probe_ready', 'alpha')).toBeNull();
    expect((await put(breaker({ kind: 'credit' }), 'tripped', 'alpha', { mode: 'push' }))?.breaker.kind).toBe('credit');
  });

  it('each key expires at its probe-ready time + max cooldown; a rate limit at its deadline', async () => {
    fresh();
    const now = Date.now();
    const cut = (b: Breaker) => ({ ...b, since: now, until: now + 10_000 });
    const a = breaker({ kind: 'credit' });
    await conn.run(
      script(PUT),
      [prefix, a.key, JSON.stringify({ b: cut(a), o: 'x' }), 'tripped', 't', '0', '0', 'change', String(MAX_COOL), '', String(now)],
      2000,
    );
    const r = breaker({ kind: 'rate_limit' });
    await conn.run(
      script(PUT),
      [prefix, r.key, JSON.stringify({ b: cut(r), o: 'x' }), 'tripped', 't', '0', '0', 'change', String(MAX_COOL), '', String(now)],
      2000,
    );
    const ttl = async (key: string) => Number(await conn.commands.pTTL(`${prefix}b:${key}`));
    const credit = await ttl('credit:a');
    expect(credit).toBeGreaterThan(10_000 + MAX_COOL - 5_000);
    expect(credit).toBeLessThanOrEqual(10_000 + MAX_COOL);
    const rate = await ttl('rate_limit:a');
    expect(rate).toBeGreaterThan(5_000);
    expect(rate).toBeLessThanOrEqual(10_000);
  });
});

describe('ends', () => {
  it('a clear of an older trip does not end a newer one; a reset ends anything', async () => {
    fresh();
    await put(breaker({ kind: 'credit', since: NOW + 5_000, until: NOW + 6_000 }), 'tripped', 'bravo');
    expect(await run(END, ['credit:a', 'cleared', 'success', 'alpha', String(NOW)])).toBe(0);
    expect(await conn.commands.exists(`${prefix}b:credit:a`)).toBe(1);
    expect(await run(END, ['credit:a', 'reset', 'reset', 'alpha', ''])).toBeGreaterThan(0);
    expect(await conn.commands.exists(`${prefix}b:credit:a`)).toBe(0);
  });
});

describe('streaks', () => {
  const WINDOW = 300_000;
  const streak = (mode: 'fail' | 'reset', at: number) =>
    run(STREAK, ['gpt-5', mode, String(at), JSON.stringify(mode === 'fail' ? ['a'] : []), '0', String(WINDOW), 'alpha']);

  it('count failures in a row; a reset answers with count 0 at a later revision, so the count before it cannot follow it', async () => {
    fresh();
    await streak('fail', NOW);
    const second = readSharedStreak((await streak('fail', NOW + 1_000)) as string);
    expect(second).toMatchObject({ name: 'gpt-5', count: 2, lastFailureAt: NOW + 1_000, seats: ['a'] });
    const reset = readSharedStreak((await streak('reset', NOW + 2_000)) as string);
    expect(reset).toMatchObject({ name: 'gpt-5', count: 0, lastFailureAt: null, seats: [] });
    expect(reset!.rev).toBeGreaterThan(second!.rev);
    expect(await conn.commands.exists(`${prefix}s:gpt-5`)).toBe(0);
    // nothing left to reset: nothing changes, nothing to order
    expect(await streak('reset', NOW + 3_000)).toBe('');
  });
});

describe('probe claims', () => {
  it('of many concurrent claims exactly one is granted; only the holder can release it', async () => {
    fresh();
    await put(breaker({ kind: 'credit', phase: 'probe_ready', until: NOW - 1 }), 'tripped', 'alpha');
    const tokens = Array.from({ length: 30 }, (_, i) => `d${i % 3}:1#${i}`);
    const answers = await Promise.all(tokens.map((t) => run(CLAIM, ['credit:a', t, String(NOW), String(MAX_COOL), t.split('#')[0]!])));
    const granted = answers.map((a, i) => ((a as [number, string])[0] === 1 ? tokens[i] : null)).filter((t) => t !== null);
    expect(granted).toHaveLength(1);
    const holder = granted[0]!;
    expect(await conn.commands.get(`${prefix}c:credit:a`)).toBe(holder);
    expect(await conn.commands.pTTL(`${prefix}c:credit:a`)).toBeGreaterThan(MAX_COOL - 5_000);
    // another daemon's token releases nothing
    expect(await run(RELEASE, ['credit:a', 'someone-else#1', 'x', 'probe not reached', String(NOW), String(MAX_COOL)])).toBe('');
    expect(await conn.commands.get(`${prefix}c:credit:a`)).toBe(holder);
    const released = await run(RELEASE, ['credit:a', holder, 'd0:1', 'probe not reached', String(NOW), String(MAX_COOL)]);
    expect(readSharedBreaker(released as string)?.breaker).toMatchObject({ phase: 'probe_ready', claimed_at: null });
    expect(await conn.commands.exists(`${prefix}c:credit:a`)).toBe(0);
  });

  it('a breaker still open in the shared copy (re-tripped elsewhere) cannot be claimed', async () => {
    fresh();
    await put(breaker({ kind: 'credit', until: NOW + 30_000 }), 'tripped', 'alpha');
    const [got] = (await run(CLAIM, ['credit:a', 'bravo#1', String(NOW), String(MAX_COOL), 'bravo'])) as [number, string];
    expect(got).toBe(0);
  });
});
