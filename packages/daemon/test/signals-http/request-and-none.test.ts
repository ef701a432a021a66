import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody, MESSAGES, messagesBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlSnapshot } from './support.js';

/**
 * The two classes that trip nothing:
 * `request` — this one request was refused (Anthropic's 429 "Extra usage is
 * required for long context requests"): fail over, and the seat stays first
 * for everything else; `none` — the request's own fault (any other 4xx): the
 * answer goes back to the agent unchanged, no fail-over.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 1 };

describe('request: fails over, trips nothing', () => {
  it('429 "Extra usage is required for long context requests" (with a Retry-After): not a rate limit of the seat', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence,
      behaviourA: answer(429, anthropic.extraUsage, { 'retry-after': '60', 'request-id': 'req_011CZf8TJf84hAUziB6LuRoc' }),
    });
    expect(await ask(fx.t, 'anthropic')).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_429', 429, 'request'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toEqual({
      status: 429,
      type: 'rate_limit_error',
      code: null,
      header: null,
      message: 'Extra usage is required for long context requests.',
    });
    expect(fx.t.events.all(isBreaker())).toEqual([]);
    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([]);
    expect(snap.seats.find((s) => s.id === 'a')).toMatchObject({ credit: null, rate_limit: null, models: [{ streak: 0, breaker: null }] });

    // the seat's other requests still go to it first
    fx.a.setDefault(respond.anthropicMessage('short context is fine'));
    expect(await ask(fx.t, 'anthropic')).toBe('short context is fine');
    const next = await fx.t.events.nextDecision();
    expect(next.chain.map((e) => [e.seat, e.state])).toEqual([
      ['a', 'healthy'],
      ['b', 'healthy'],
    ]);
  });
});

const noneCases = [
  {
    name: 'Anthropic 400 invalid_request_error',
    provider: 'anthropic',
    status: 400,
    body: anthropic.invalidRequest,
    type: 'invalid_request_error',
  },
  { name: 'Anthropic 404 not_found_error', provider: 'anthropic', status: 404, body: anthropic.notFound, type: 'not_found_error' },
  { name: 'Anthropic 413 request_too_large', provider: 'anthropic', status: 413, body: anthropic.tooLarge, type: 'request_too_large' },
  {
    name: 'OpenAI 400 context_length_exceeded',
    provider: 'openai',
    status: 400,
    body: openai.contextTooLong,
    type: 'invalid_request_error',
  },
] as const;

describe('none: the request’s own fault goes back unchanged', () => {
  it.each(noneCases)('$name: relayed as the upstream sent it, no fail-over, no breaker', async (c) => {
    fx = await startTwoSeats({
      provider: c.provider,
      influence,
      behaviourA: answer(c.status, c.body, { 'x-request-id': 'req_upstream_1' }),
    });
    const res = c.provider === 'anthropic' ? await fx.t.post(MESSAGES, messagesBody()) : await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(c.status);
    expect(await res.text()).toBe(c.body);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe('req_upstream_1');
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(res.headers.get('x-routeplane-attempts')).toBe('1');

    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([['a/model-a', 'http_4xx', c.status, 'none']]);
    expect(d.attempts[0]!.signal).toMatchObject({ status: c.status, type: c.type });
    expect(d).toMatchObject({ status: c.status, served_by: 'a/model-a' });
    expect(fx.b.requests).toHaveLength(0);
    expect(fx.t.events.all(isBreaker())).toEqual([]);
    expect((await controlSnapshot(fx.t)).seats.find((s) => s.id === 'a')!.models[0]!.streak).toBe(0);
  });
});
