import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange } from './support.js';

/** `balance: cost` over real HTTP: declared price ascending, undeclared last, ties in configured order. */

const failing = new Set<string>();
let up: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  const ok = respond.openaiChat();
  up = await startFakeUpstream((req, res) => (failing.has(String(req.json?.model)) ? respond.status(500)(req, res) : ok(req, res)));
  t = await startTestDaemon({
    seats: ['dear', 'free', 'cheap-1', 'cheap-2', 'unpriced'].map((id) => ({ id, provider: 'openai' as const, upstream: up })),
    routes: [
      {
        model: 'gpt',
        balance: 'cost',
        chain: [
          { seat: 'unpriced', model: 'm-unpriced' },
          { seat: 'dear', model: 'm-dear', cost_per_mtok: 15 },
          { seat: 'cheap-1', model: 'm-cheap-1', cost_per_mtok: 3 },
          { seat: 'cheap-2', model: 'm-cheap-2', cost_per_mtok: 3 },
          { seat: 'free', model: 'm-free', cost_per_mtok: 0 },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await t?.close();
  await up?.close();
});

describe('balance: cost', () => {
  it('the cheapest declared target serves; the chain reads price ascending, ties in configured order, undeclared last', async () => {
    const x = await exchange(t, CHAT, chat('gpt'));
    expect(x.res.status).toBe(200);
    expect(x.decision.balance).toBe('cost');
    expect(x.decision.served_by).toBe('free/m-free');
    expect(x.decision.chain.map((e) => e.seat)).toEqual(['free', 'cheap-1', 'cheap-2', 'dear', 'unpriced']);
    expect(x.res.headers.get('x-routeplane-decision')).toBe(
      'free/m-free(healthy) -> cheap-1/m-cheap-1(healthy) -> cheap-2/m-cheap-2(healthy) -> dear/m-dear(healthy) -> unpriced/m-unpriced(healthy)',
    );
  });

  it('fail-over walks the same order', async () => {
    failing.add('m-free');
    failing.add('m-cheap-1');
    failing.add('m-cheap-2');
    failing.add('m-dear');
    try {
      const x = await exchange(t, CHAT, chat('gpt'));
      expect(x.decision.attempts.map((a) => a.seat)).toEqual(['free', 'cheap-1', 'cheap-2', 'dear', 'unpriced']);
      expect(x.decision.served_by).toBe('unpriced/m-unpriced');
    } finally {
      failing.clear();
    }
  });
});
