import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange } from './support.js';

/**
 * `balance: latency` over real HTTP: the mean time
 * to first byte of each target's `ok` attempts, fastest first, unsampled last
 * in configured order. The slow seat holds its headers far longer than a busy
 * machine could delay the fast one.
 */

const SLOW_MS = 250;
let slow: FakeUpstream;
let fast: FakeUpstream;
let flaky: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  const ok = respond.openaiChat();
  slow = await startFakeUpstream((req, res) => void setTimeout(() => ok(req, res), SLOW_MS));
  fast = await startFakeUpstream(ok);
  flaky = await startFakeUpstream(respond.status(500));
  t = await startTestDaemon({
    seats: [
      { id: 'slow', provider: 'openai', upstream: slow },
      { id: 'fast', provider: 'openai', upstream: fast },
      { id: 'flaky', provider: 'openai', upstream: flaky },
    ],
    routes: [
      {
        model: 'gpt',
        balance: 'latency',
        chain: [
          { seat: 'slow', model: 'm-slow' },
          { seat: 'flaky', model: 'm-flaky' },
          { seat: 'fast', model: 'm-fast' },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([slow?.close(), fast?.close(), flaky?.close()]);
});

describe('balance: latency', () => {
  it('unsampled targets go in configured order; a sampled fast target goes first; a failure is no sample', async () => {
    // nothing sampled yet: configured order
    const first = await exchange(t, CHAT, chat('gpt'));
    expect(first.decision.balance).toBe('latency');
    expect(first.decision.chain.map((e) => e.seat)).toEqual(['slow', 'flaky', 'fast']);
    expect(first.decision.served_by).toBe('slow/m-slow');

    // sampled slow now, the two others not: slow first, then the unsampled in configured order
    const second = await exchange(t, CHAT, chat('gpt'));
    expect(second.decision.chain.map((e) => e.seat)).toEqual(['slow', 'flaky', 'fast']);

    // the fast seat gets one sample through a pin
    const pinned = await exchange(t, CHAT, chat('gpt'), { 'x-routeplane-pin': 'fast' });
    expect(pinned.decision.served_by).toBe('fast/m-fast');

    const third = await exchange(t, CHAT, chat('gpt'));
    expect(third.decision.chain.map((e) => e.seat)).toEqual(['fast', 'slow', 'flaky']);
    expect(third.decision.served_by).toBe('fast/m-fast');

    // the flaky seat answers its 500 at once: a fast failure must not read as a fast target
    const failed = await exchange(t, CHAT, chat('gpt'), { 'x-routeplane-pin': 'flaky' });
    expect(failed.decision.attempts.map((a) => [a.seat, a.outcome])).toEqual([
      ['flaky', 'http_5xx'],
      ['fast', 'ok'],
    ]);
    const fourth = await exchange(t, CHAT, chat('gpt'));
    expect(fourth.decision.chain.map((e) => e.seat)).toEqual(['fast', 'slow', 'flaky']);
  });
});
