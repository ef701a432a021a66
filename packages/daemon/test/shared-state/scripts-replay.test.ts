import type { Breaker } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, script } from '../../src/store/connection.js';
import { END, PUT } from '../../src/store/lua.js';
import { readMessage, readSharedBreaker } from '../../src/store/wire.js';
import { startRedis, type RedisServer } from './redis-server.js';
import { connectScripts } from './script-connection.js';
import { seatBreaker } from '../helpers/seat-breaker.js';

/**
 * The scripts' rules for an end made while Redis was away, given again once
 * it is back (END in 'replay' mode), and for a trip made during an outage
 * pushed after it (PUT in 'push' mode), straight against a real Redis.
 */

const NOW = 1_800_000_000_000;
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
  prefix = `replay-${++n}:`;
}

function credit(over: Partial<Breaker> = {}): Breaker {
  return seatBreaker('credit', NOW, over);
}

async function put(b: Breaker, action: string, origin: string, mode = 'change') {
  const args = [prefix, b.key, JSON.stringify({ b, o: origin }), action, 'test', '0', '0', mode, String(MAX_COOL), '', String(NOW)];
  const out = await conn.run(script(PUT), args, 2000);
  if (!out.ok) throw new Error(out.why);
  return out.value === '' ? null : readSharedBreaker(out.value as string);
}

async function end(action: 'reset' | 'cleared', since: number | null, mode: '' | 'replay'): Promise<number> {
  const args = [prefix, 'credit:a', action, 'test', 'alpha', since === null ? '' : String(since), mode];
  const out = await conn.run(script(END), args, 2000);
  if (!out.ok) throw new Error(out.why);
  return Number(out.value);
}

async function shared(): Promise<Breaker | null> {
  const out = await conn.run(script(`return redis.call('GET', ARGV[1] .. 'b:credit:a') or ''`), [prefix], 2000);
  if (!out.ok) throw new Error(out.why);
  return out.value === '' ? null : (readSharedBreaker(out.value as string)?.breaker ?? null);
}

describe('an end given again after an outage', () => {
  it('ends the trip it ended, or an older one', async () => {
    fresh();
    await put(credit(), 'tripped', 'bravo', 'push');
    expect(await end('reset', NOW, 'replay')).toBeGreaterThan(0);
    expect(await shared()).toBeNull();
  });

  it('leaves a newer trip, even for a reset (which, given live, always ends)', async () => {
    fresh();
    await put(credit({ since: NOW + 5_000 }), 'tripped', 'bravo', 'push');
    expect(await end('reset', NOW, 'replay')).toBe(0);
    expect(await shared()).toMatchObject({ since: NOW + 5_000 });
    expect(await end('reset', null, '')).toBeGreaterThan(0);
    expect(await shared()).toBeNull();
  });

  it('publishes nothing when there is nothing to end', async () => {
    fresh();
    expect(await end('cleared', NOW, 'replay')).toBe(0);
  });

  it('its message carries the ended trip’s since, for a daemon holding a newer one', () => {
    const m = readMessage(JSON.stringify({ t: 'b', k: 'credit:a', a: 'reset', r: 'reset', o: 'alpha', v: 7, b: null, s: NOW }));
    expect(m).toMatchObject({ kind: 'breaker', breaker: null, endedSince: NOW });
    const live = readMessage(JSON.stringify({ t: 'b', k: 'credit:a', a: 'reset', r: 'reset', o: 'alpha', v: 8, b: null }));
    expect(live).toMatchObject({ kind: 'breaker', endedSince: null });
  });
});

describe('a trip made during an outage, pushed after it', () => {
  it('moves the shared copy’s since forward (it stands for the later trip too); a live trip does not', async () => {
    fresh();
    await put(credit(), 'tripped', 'alpha');
    expect((await put(credit({ since: NOW + 3_000 }), 'tripped', 'bravo'))?.breaker.since).toBe(NOW);
    expect((await put(credit({ since: NOW + 3_000 }), 'tripped', 'bravo', 'push'))?.breaker.since).toBe(NOW + 3_000);
    // so an end of the older trip, given again, leaves it
    expect(await end('reset', NOW, 'replay')).toBe(0);
    expect(await shared()).toMatchObject({ since: NOW + 3_000 });
  });
});
