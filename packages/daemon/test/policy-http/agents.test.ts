import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, expectRefused, MESSAGES, message } from './support.js';

/** Agents with their own tokens, scopes and lanes over real HTTP. */

const TOKENS = { ci: 'tok-ci-0f3b9a', laptop: 'tok-laptop-7c21e4', default: 'tok-default-55aa01' };

let anthropic: FakeUpstream;
let openai: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  anthropic = await startFakeUpstream(respond.anthropicMessage());
  openai = await startFakeUpstream(respond.openaiChat());
  t = await startTestDaemon({
    seats: [
      { id: 'max', provider: 'anthropic', upstream: anthropic },
      { id: 'oa', provider: 'openai', upstream: openai },
    ],
    routes: [
      { model: 'sonnet', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] },
      { model: 'haiku', chain: [{ seat: 'max', model: 'claude-haiku-4-5' }] },
      { model: 'opus', chain: [{ seat: 'max', model: 'claude-opus-4-1' }] },
      { model: 'gpt', chain: [{ seat: 'oa', model: 'gpt-5' }] },
    ],
    aliases: { big: 'opus', 'claude-opus-*': 'big', quick: 'haiku' },
    server: {
      auth_token: TOKENS.default,
      agents: [
        { id: 'ci-bots', token: TOKENS.ci, allow: ['haiku', 'gpt'], lane: 'background' },
        { id: 'laptop', token: TOKENS.laptop, deny: ['opus'] },
      ],
    },
  });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([anthropic?.close(), openai?.close()]);
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('agent tokens', () => {
  it('with agents set a token is required even on loopback: 401 in the family shape, no decision', async () => {
    const decisionsBefore = t.events.events.filter((e) => e.type === 'decision').length;
    const none = await t.post(MESSAGES, message('sonnet'));
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    const wrong = await t.post(CHAT, chat('gpt'), bearer('tok-not-known'));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { message: expect.stringContaining('token') } });
    expect(wrong.headers.get('x-routeplane-decision')).toBeNull();
    expect((await fetch(`${t.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${t.url}/v1/models`, { headers: { 'x-api-key': TOKENS.laptop } })).status).toBe(200);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    // a request with a known token makes a decision; the two refused ones made none
    const ok = await exchange(t, MESSAGES, message('sonnet'), bearer(TOKENS.laptop));
    expect(ok.res.status).toBe(200);
    expect(t.events.events.filter((e) => e.type === 'decision').length - decisionsBefore).toBe(1);
    expect(anthropic.requests).toHaveLength(1);
  });

  it('each token is its agent, as Bearer or x-api-key, recorded in the decision and never forwarded', async () => {
    const laptop = await exchange(t, MESSAGES, message('sonnet'), { 'x-api-key': TOKENS.laptop });
    expect(laptop.decision.agent).toBe('laptop');
    const ci = await exchange(t, CHAT, chat('gpt'), { authorization: `bearer ${TOKENS.ci}` });
    expect(ci.res.status).toBe(200);
    expect(ci.decision.agent).toBe('ci-bots');
    const byDefault = await exchange(t, MESSAGES, message('opus'), bearer(TOKENS.default));
    expect(byDefault.res.status).toBe(200);
    expect(byDefault.decision.agent).toBe('default');
    const forwarded = JSON.stringify([...anthropic.requests, ...openai.requests].map((r) => r.headers));
    for (const token of Object.values(TOKENS)) expect(forwarded).not.toContain(token);
  });

  it("an agent's lane is its requests' default lane", async () => {
    const ci = await exchange(t, MESSAGES, message('haiku'), bearer(TOKENS.ci));
    expect(ci.decision.lane).toBe('background');
    const laptop = await exchange(t, MESSAGES, message('haiku'), bearer(TOKENS.laptop));
    expect(laptop.decision.lane).toBe('foreground');
  });
});

describe('scopes', () => {
  it('a denied route: 403 in the family shape naming route and agent, with a decision and no attempt', async () => {
    const before = anthropic.requests.length;
    const x = await exchange(t, MESSAGES, message('opus'), bearer(TOKENS.laptop));
    expectRefused(x, 403);
    expect(x.body).toEqual({
      type: 'error',
      error: { type: 'permission_error', message: 'route "opus" is not allowed for agent "laptop"' },
    });
    expect(x.decision.agent).toBe('laptop');
    expect(x.decision.route).toBe('opus');
    expect(x.res.headers.get('x-routeplane-decision')).toBe('max/claude-opus-4-1(healthy)');
    expect(anthropic.requests.length).toBe(before);
  });

  it.each([
    ['an alias', 'big'],
    ['a pattern through an alias', 'claude-opus-4-1-20250805'],
    ['a pin written as SEAT/ROUTE', 'max/big'],
  ])('a denied route stays denied through %s (%s)', async (_what, requested) => {
    const before = anthropic.requests.length;
    const x = await exchange(t, MESSAGES, message(requested), bearer(TOKENS.laptop));
    expectRefused(x, 403);
    expect(x.decision.requested).toBe(requested);
    expect(x.decision.route).toBe('opus');
    expect(x.body.error.message).toBe('route "opus" is not allowed for agent "laptop"');
    expect(anthropic.requests.length).toBe(before);
  });

  it('allow limits an agent to its routes, checked after aliases; OpenAI shape on an OpenAI path', async () => {
    const allowed = await exchange(t, MESSAGES, message('quick'), bearer(TOKENS.ci));
    expect(allowed.res.status).toBe(200);
    expect(allowed.decision.route).toBe('haiku');
    const outside = await exchange(t, MESSAGES, message('sonnet'), bearer(TOKENS.ci));
    expectRefused(outside, 403);
    expect(outside.body.error.message).toBe('route "sonnet" is not allowed for agent "ci-bots"');
    expect(outside.decision.agent).toBe('ci-bots');
    expect(outside.decision.lane).toBe('background');

    const d = await startTestDaemon({
      seats: [{ id: 'oa', provider: 'openai', upstream: openai }],
      routes: [
        { model: 'gpt', chain: [{ seat: 'oa', model: 'gpt-5' }] },
        { model: 'o3', chain: [{ seat: 'oa', model: 'o3' }] },
      ],
      server: { agents: [{ id: 'bot', token: 'tok-bot-1', allow: ['gpt'] }] },
    });
    try {
      const x = await exchange(d, CHAT, chat('o3'), bearer('tok-bot-1'));
      expectRefused(x, 403);
      expect(x.body).toMatchObject({ error: { message: 'route "o3" is not allowed for agent "bot"', type: expect.any(String) } });
    } finally {
      await d.close();
    }
  });

  it('an unknown model is a 404 for an agent too, not a 403', async () => {
    const x = await exchange(t, MESSAGES, message('nothing-like-it'), bearer(TOKENS.ci));
    expect(x.res.status).toBe(404);
    expect(x.decision.agent).toBe('ci-bots');
  });
});
