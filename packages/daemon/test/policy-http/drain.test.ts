import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, expectRefused, MESSAGES, message } from './support.js';

/**
 * Weights and draining over real HTTP: a weight-0
 * target is never tried — not normally, not in fail-over, not failing open —
 * and a route whose every target of the inbound family is drained answers 503.
 */

let drained: FakeUpstream;
let b: FakeUpstream;
let c: FakeUpstream;
let anthropic: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  drained = await startFakeUpstream(respond.openaiChat());
  b = await startFakeUpstream(respond.status(402));
  c = await startFakeUpstream(respond.status(402));
  anthropic = await startFakeUpstream(respond.anthropicMessage());
  t = await startTestDaemon({
    seats: [
      { id: 'drained', provider: 'openai', upstream: drained },
      { id: 'b', provider: 'openai', upstream: b },
      { id: 'c', provider: 'openai', upstream: c },
      { id: 'claude', provider: 'anthropic', upstream: anthropic },
    ],
    routes: [
      {
        model: 'gpt',
        chain: [
          { seat: 'drained', model: 'm-drained', weight: 0 },
          { seat: 'b', model: 'm-b' },
          { seat: 'c', model: 'm-c', weight: 3 },
        ],
      },
      {
        model: 'off',
        chain: [
          { seat: 'drained', model: 'm-drained', weight: 0 },
          { seat: 'b', model: 'm-b', weight: 0 },
          { seat: 'claude', model: 'claude-x' },
        ],
      },
    ],
    influence: { enabled: true, cooldown_secs: 60 },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([drained?.close(), b?.close(), c?.close(), anthropic?.close()]);
});

describe('a drained target', () => {
  it('is never contacted, even when every other target fails; it shows as skipped: drained', async () => {
    const x = await exchange(t, CHAT, chat('gpt'));
    expect(x.res.status).toBe(402);
    expect(x.decision.attempts.map((a) => a.seat)).toEqual(['b', 'c']);
    expect(x.decision.chain.at(-1)).toEqual({
      seat: 'drained',
      model: 'm-drained',
      state: 'skipped',
      reason: 'drained',
      pinned: false,
      left_ms: null,
    });
    expect(drained.requests).toHaveLength(0);
  });

  it('is not tried when everything else is tripped and the request fails open', async () => {
    await t.events.take(isBreaker('tripped', 'b'));
    await t.events.take(isBreaker('tripped', 'c'));
    const x = await exchange(t, CHAT, chat('gpt'));
    expect(x.decision.fail_open).toBe(true);
    expect(x.decision.attempts.map((a) => a.seat)).toEqual(['b', 'c']);
    expect(x.res.headers.get('x-routeplane-decision')).toBe(
      'b/m-b(fail-open: credit) -> c/m-c(fail-open: credit) -> drained/m-drained(skipped: drained)',
    );
    expect(drained.requests).toHaveLength(0);
  });

  it('reads drained in the snapshot', () => {
    const gpt = t.context.influence.routes().find((r) => r.model === 'gpt');
    expect(gpt?.chain.map((e) => [e.seat, e.state])).toEqual(
      expect.arrayContaining([
        ['drained', 'drained'],
        ['b', 'tripped'],
        ['c', 'tripped'],
      ]),
    );
    expect(gpt?.chain).toHaveLength(3);
  });
});

describe('a route whose every target of the family is drained', () => {
  it('answers 503 in the OpenAI shape naming the route, with a decision and no attempt', async () => {
    const x = await exchange(t, CHAT, chat('off'));
    expectRefused(x, 503);
    expect(x.body.error.message).toContain('"off"');
    expect(x.body.error.message).toMatch(/drained/);
    expect(x.decision.route).toBe('off');
    expect(x.decision.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['drained', 'skipped', 'drained'],
      ['b', 'skipped', 'drained'],
      ['claude', 'skipped', 'protocol'],
    ]);
    expect(x.res.headers.get('x-routeplane-decision')).toBe(
      'drained/m-drained(skipped: drained) -> b/m-b(skipped: drained) -> claude/claude-x(skipped: protocol)',
    );
    expect(drained.requests).toHaveLength(0);
  });

  it('while the other family still has a target to serve it', async () => {
    const x = await exchange(t, MESSAGES, message('off'));
    expect(x.res.status).toBe(200);
    expect(x.decision.served_by).toBe('claude/claude-x');
  });

  it('answers 503 in the Anthropic shape on /v1/messages when Anthropic targets are all drained', async () => {
    const up = await startFakeUpstream(respond.anthropicMessage());
    const d = await startTestDaemon({
      seats: [{ id: 'only', provider: 'anthropic', upstream: up }],
      routes: [{ model: 'claude', chain: [{ seat: 'only', model: 'claude-x', weight: 0 }] }],
    });
    try {
      const x = await exchange(d, MESSAGES, message('claude'));
      expectRefused(x, 503);
      expect(x.body).toMatchObject({ type: 'error', error: { type: expect.any(String), message: expect.stringContaining('"claude"') } });
      expect(up.requests).toHaveLength(0);
    } finally {
      await d.close();
      await up.close();
    }
  });
});
