import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, expectRefused, MESSAGES, message } from '../policy-http/support.js';

/**
 * Which lane a request runs in: header
 * `x-routeplane-lane`, else the agent's lane, else the route's, else
 * foreground. Each case is checked in the decision and by what the lane does:
 * route `gpt`'s only seat is tripped, so background work gets a 503 and
 * foreground work still reaches it (failing open).
 */

const TOKENS = { bots: 'tok-bots-a1b2', person: 'tok-person-c3d4', eager: 'tok-eager-e5f6' };

let openai: FakeUpstream;
let anthropic: FakeUpstream;
let t: TestDaemon;

beforeAll(async () => {
  // the OpenAI seat is out of credit for the whole file: foreground failing open never clears it
  openai = await startFakeUpstream(respond.status(402));
  anthropic = await startFakeUpstream(respond.anthropicMessage());
  t = await startTestDaemon({
    seats: [
      { id: 'oa', provider: 'openai', upstream: openai },
      { id: 'max', provider: 'anthropic', upstream: anthropic },
    ],
    routes: [
      { model: 'gpt', chain: [{ seat: 'oa', model: 'gpt-5' }] },
      { model: 'batch', lane: 'background', chain: [{ seat: 'oa', model: 'gpt-5' }] },
      { model: 'sonnet', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] },
    ],
    server: {
      agents: [
        { id: 'bots', token: TOKENS.bots, lane: 'background' },
        { id: 'person', token: TOKENS.person },
        { id: 'eager', token: TOKENS.eager, lane: 'foreground' },
      ],
    },
    influence: { enabled: true, cooldown_secs: 60 },
  });
  await t.post(CHAT, chat('gpt'), { authorization: `Bearer ${TOKENS.person}` });
  await t.events.take(isBreaker('tripped', 'oa'));
});

afterAll(async () => {
  await t?.close();
  await Promise.all([openai?.close(), anthropic?.close()]);
});

const as = (agent: keyof typeof TOKENS, headers: Record<string, string> = {}) => ({
  authorization: `Bearer ${TOKENS[agent]}`,
  ...headers,
});

describe('the lane', () => {
  it.each([
    ['no header, no agent lane, no route lane: foreground', 'person', 'gpt', {}, 'foreground'],
    ['the header', 'person', 'gpt', { 'x-routeplane-lane': 'background' }, 'background'],
    ["the agent's lane", 'bots', 'gpt', {}, 'background'],
    ["the header over the agent's lane", 'bots', 'gpt', { 'x-routeplane-lane': 'foreground' }, 'foreground'],
    ["the route's lane", 'person', 'batch', {}, 'background'],
    ["the agent's lane over the route's", 'eager', 'batch', {}, 'foreground'],
    ["the header over the route's lane", 'person', 'batch', { 'x-routeplane-lane': 'foreground' }, 'foreground'],
  ] as const)('%s', async (_what, agent, route, headers, lane) => {
    const before = openai.requests.length;
    const x = await exchange(t, CHAT, chat(route), as(agent, headers));
    expect(x.decision.lane).toBe(lane);
    if (lane === 'background') {
      expectRefused(x, 503);
      expect(x.decision.skipped).toBe(true);
      expect(openai.requests.length).toBe(before);
    } else {
      expect(x.decision.fail_open).toBe(true);
      expect(x.decision.attempts.map((a) => a.seat)).toEqual(['oa']);
      expect(openai.requests.length).toBe(before + 1);
    }
  });

  it('background work with a healthy target is served as usual', async () => {
    const x = await exchange(t, MESSAGES, message('sonnet'), as('bots'));
    expect(x.res.status).toBe(200);
    expect(x.decision.lane).toBe('background');
    expect(x.decision.skipped).toBe(false);
  });

  it.each([
    ['OpenAI', CHAT, chat('gpt')],
    ['Anthropic', MESSAGES, message('sonnet')],
  ])('any other header value: 400 in the %s shape naming the header, with a decision and no attempt', async (_family, path, body) => {
    const before = openai.requests.length + anthropic.requests.length;
    const x = await exchange(t, path, body, as('person', { 'x-routeplane-lane': 'urgent' }));
    expectRefused(x, 400);
    expect(x.body.error.message).toContain('x-routeplane-lane');
    if (path === MESSAGES) expect(x.body.type).toBe('error');
    expect(x.res.headers.get('x-routeplane-decision')).not.toBeNull();
    expect(openai.requests.length + anthropic.requests.length).toBe(before);
  });
});
