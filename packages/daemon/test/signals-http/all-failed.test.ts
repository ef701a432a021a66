import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../helpers/closed-port.js';
import { readJson } from '../helpers/read-stream.js';
import { isBreaker } from '../helpers/events.js';
import { type Behaviour, respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody, MESSAGES, messagesBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai, openrouter } from '../signals/fixtures.js';
import { openaiClient } from './sdk.js';
import { answer, attemptsOf, epochSecondsIn } from './support.js';

/**
 * The answer when every attempt failed: not the last one —
 * tripped seats are tried last, so that is usually a dead seat's 402 — but
 * the one ranked first by its evidence: rate_limit (earliest deadline),
 * model_error, request, key_rejected, quota (earliest reset), credit; ties to
 * the earliest attempt. Relayed as the upstream sent it, with
 * `x-routeplane-target` naming it. No upstream answer at all: 502/504.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900 };

/** An answer whose body says which seat sent it, so the test can tell whose answer the agent got. */
function marked(status: number, body: string, seat: string, headers: Record<string, string> = {}): Behaviour {
  return answer(status, body, { 'x-upstream-seat': seat, ...headers });
}

const codex = (resetSecs: number) =>
  `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":${resetSecs}}}`;

describe('the failed attempt ranked first is the one the agent gets', () => {
  it("a sibling's 429 beats the dead seat's 402 tried after it: the SDK is told to retry soon, not to top up", async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: marked(402, openrouter.insufficientCredits, 'a') });
    await openaiClient(fx.t).chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] });
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('tripped', 'a'));

    fx.b.setDefault(marked(429, openai.rateLimitExceeded, 'b', { 'retry-after': '7' }));
    const err = await openaiClient(fx.t)
      .chat.completions.create({ model: 'gpt', messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimited = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.code).toBe('rate_limit_exceeded');
    expect(rateLimited.headers.get('retry-after')).toBe('7');
    expect(rateLimited.headers.get('x-upstream-seat')).toBe('b');
    expect(rateLimited.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(rateLimited.headers.get('x-routeplane-attempts')).toBe('2');

    const d = await fx.t.events.nextDecision();
    expect(d.chain.map((e) => [e.seat, e.state])).toEqual([
      ['b', 'healthy'],
      ['a', 'tripped'],
    ]);
    expect(attemptsOf(d)).toEqual([
      ['b/model-b', 'http_429', 429, 'rate_limit'],
      ['a/model-a', 'http_402', 402, 'credit'],
    ]);
    expect(d).toMatchObject({ status: 429, served_by: 'b/model-b' });
  });

  it("a sibling's 5xx beats the dead seat's 402 (Anthropic)", async () => {
    fx = await startTwoSeats({ provider: 'anthropic', influence, behaviourA: marked(402, anthropic.billing, 'a') });
    await fx.t.post(MESSAGES, messagesBody());
    await fx.t.events.nextDecision();
    fx.b.setDefault(marked(529, anthropic.overloaded, 'b'));
    const res = await fx.t.post(MESSAGES, messagesBody());
    expect(res.status).toBe(529);
    expect(await res.text()).toBe(anthropic.overloaded);
    expect(res.headers.get('x-upstream-seat')).toBe('b');
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d).map(([target, , , evidence]) => [target, evidence])).toEqual([
      ['b/model-b', 'model_error'],
      ['a/model-a', 'credit'],
    ]);
    expect(d).toMatchObject({ status: 529, served_by: 'b/model-b' });
  });

  const later = epochSecondsIn(6 * 3600);
  const sooner = epochSecondsIn(2 * 3600);
  const ranking: Array<{
    name: string;
    provider: 'openai' | 'anthropic';
    a: [number, string, Record<string, string>?];
    b: [number, string, Record<string, string>?];
    winner: 'a' | 'b';
  }> = [
    {
      name: 'credit loses to model_error',
      provider: 'openai',
      a: [429, openai.insufficientQuota],
      b: [503, openai.serverOverloaded],
      winner: 'b',
    },
    {
      name: 'quota loses to key_rejected',
      provider: 'openai',
      a: [429, codex(later)],
      b: [401, openai.invalidKey('sk-proj-****wxyz')],
      winner: 'b',
    },
    {
      name: 'key_rejected loses to request',
      provider: 'anthropic',
      a: [401, anthropic.authentication],
      b: [429, anthropic.extraUsage],
      winner: 'b',
    },
    {
      name: 'request loses to model_error',
      provider: 'anthropic',
      a: [429, anthropic.extraUsage],
      b: [500, anthropic.apiError],
      winner: 'b',
    },
    {
      name: 'model_error loses to rate_limit',
      provider: 'anthropic',
      a: [529, anthropic.overloaded],
      b: [429, anthropic.tokensPerMinute, { 'retry-after': '30' }],
      winner: 'b',
    },
    {
      name: 'two rate limits: the earliest deadline',
      provider: 'openai',
      a: [429, openai.rateLimitExceeded, { 'retry-after': '30' }],
      b: [429, openai.slowDown, { 'retry-after': '5' }],
      winner: 'b',
    },
    { name: 'two quotas: the earliest reset', provider: 'openai', a: [429, codex(later)], b: [429, codex(sooner)], winner: 'b' },
    {
      name: 'a tie: the earliest attempt',
      provider: 'anthropic',
      a: [500, anthropic.apiError],
      b: [529, anthropic.overloaded],
      winner: 'a',
    },
  ];

  it.each(ranking)('$name', async (c) => {
    fx = await startTwoSeats({
      provider: c.provider,
      influence: { enabled: false },
      behaviourA: marked(c.a[0], c.a[1], 'a', c.a[2]),
      behaviourB: marked(c.b[0], c.b[1], 'b', c.b[2]),
    });
    const res = c.provider === 'openai' ? await fx.t.post(CHAT, chatBody()) : await fx.t.post(MESSAGES, messagesBody());
    const [status, body, headers] = c.winner === 'a' ? c.a : c.b;
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(body);
    expect(res.headers.get('x-upstream-seat')).toBe(c.winner);
    for (const [name, value] of Object.entries(headers ?? {})) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('x-routeplane-target')).toBe(`${c.winner}/model-${c.winner}`);
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status, served_by: `${c.winner}/model-${c.winner}` });
    expect(d.attempts).toHaveLength(2);
  });
});

describe('no upstream answered: the 502/504 rule stands', () => {
  it('refused then reset: 502 naming each target; an answer from any one would have been relayed', async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, aBaseUrl: await closedPortUrl(), behaviourB: respond.resetBeforeHeaders() });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(502);
    expect(res.headers.get('x-routeplane-target')).toBeNull();
    const body = await readJson(res);
    expect(body.error.message).toContain('a/model-a (network)');
    expect(body.error.message).toContain('b/model-b (network)');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'network', null, 'model_error'],
      ['b/model-b', 'network', null, 'model_error'],
    ]);
  });

  it('the last attempt timed out: 504', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence,
      timeouts: { first_byte_ms: 200 },
      aBaseUrl: await closedPortUrl(),
      behaviourB: respond.hang(),
    });
    const res = await fx.t.post(MESSAGES, messagesBody());
    expect(res.status).toBe(504);
    expect((await readJson(res)).type).toBe('error');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d).map(([target, outcome]) => [target, outcome])).toEqual([
      ['a/model-a', 'network'],
      ['b/model-b', 'timeout'],
    ]);
  });

  it('a refused connection and a 402: the only upstream answer is relayed', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence,
      aBaseUrl: await closedPortUrl(),
      behaviourB: marked(402, openai.insufficientQuota, 'b'),
    });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(402);
    expect(await res.text()).toBe(openai.insufficientQuota);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
  });
});
