import { beforeAll, describe, expect, it } from 'vitest';
import { isDecision } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { startHostile, type Family, type HostileFixture } from '../helpers/hostile-fixture.js';
import { expectAnthropicError, expectOpenAiError, expectRouteplaneHeaders } from '../helpers/error-shapes.js';
import { rawRequest } from '../helpers/raw-http.js';

/**
 * The agent token: with `server.auth_token_env` set, a request without it or
 * with a wrong one gets 401 in the family shape, the right one is served,
 * and no upstream ever sees it. (Refusing to start without one where it is
 * required: unprotected-listen.test.ts.)
 */

const TOKEN = 'rp-agent-token-7Qz1x9LmA2';

const WRONG: Array<[string, Record<string, string>]> = [
  ['no credential at all', {}],
  ['the token with one character more', { authorization: `Bearer ${TOKEN}x` }],
  ['the token minus its last character', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
  ['a prefix of the token', { 'x-api-key': TOKEN.slice(0, 8) }],
  ['the token with the wrong scheme', { authorization: `Basic ${TOKEN}` }],
  ['the token with no scheme', { authorization: TOKEN }],
  ['the scheme with no token', { authorization: 'Bearer' }],
  ['the token followed by more words', { authorization: `Bearer ${TOKEN} extra` }],
  ['the token in another case', { 'x-api-key': TOKEN.toUpperCase() }],
  ['an empty x-api-key', { 'x-api-key': '' }],
];

const RIGHT: Array<[string, Record<string, string>]> = [
  ['Bearer', { authorization: `Bearer ${TOKEN}` }],
  ['bearer (lower case)', { authorization: `bearer ${TOKEN}` }],
  ['BEARER (upper case)', { authorization: `BEARER ${TOKEN}` }],
  ['x-api-key', { 'x-api-key': TOKEN }],
  ['x-api-key, with a wrong Authorization beside it', { authorization: 'Bearer not-the-token', 'x-api-key': TOKEN }],
];

describe.each<Family>(['openai', 'anthropic'])('with a token (%s family)', (family) => {
  let fx: HostileFixture;
  beforeAll(async () => {
    // a fails with 500 so every served request also crosses a fail-over: both upstreams see traffic
    // (influence off, so a never trips and stays first)
    fx = await startHostile({
      family,
      behaviourA: respond.status(500),
      influence: { enabled: false },
      server: { auth_token: TOKEN, body_limit_mb: 1 },
    });
    return () => fx.finish();
  });

  function post(headers: Record<string, string>, body: unknown = fx.main()): Promise<Response> {
    return fetch(fx.t.url + fx.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  it.each(WRONG)('%s: 401 in the family shape, routeplane headers, nothing sent upstream, no decision', async (_what, headers) => {
    const before = fx.a.requests.length + fx.b.requests.length;
    const decisions = fx.t.events.all(isDecision).length;
    const res = await post(headers);
    expect(res.status).toBe(401);
    expectRouteplaneHeaders(res, 0, null);
    const body = await res.json();
    if (family === 'openai') expectOpenAiError(body, 'invalid_api_key');
    else expectAnthropicError(body, 'authentication_error');
    expect(JSON.stringify(body)).not.toContain(TOKEN.slice(0, 8));
    expect(fx.a.requests.length + fx.b.requests.length).toBe(before);
    expect(fx.t.events.all(isDecision).length).toBe(decisions);
    // the daemon still serves an agent that has the token
    const ok = await post({ authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    await ok.text();
    expect((await fx.t.events.nextDecision()).status).toBe(200);
  });

  it('an agent without the token cannot make the daemon read a body: 401 before 413', async () => {
    const big = JSON.stringify({ model: 'main', pad: 'z'.repeat(2 * 1024 * 1024) });
    const answer = await rawRequest(fx.t.url, { path: fx.path, headers: { 'content-type': 'application/json' }, body: big });
    expect(answer.status).toBe(401);
    expect(answer.headers['x-routeplane-attempts']).toBe('0');
  });

  it.each(RIGHT)('%s: served, and no upstream ever saw the token', async (_what, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 2, 'b/model-b');
    await res.text();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.status])).toEqual([
      ['a', 500],
      ['b', 200],
    ]);
    const seen = [...fx.a.requests, ...fx.b.requests];
    expect(seen.length).toBeGreaterThan(0);
    for (const req of seen) {
      const wire = `${req.url}\n${JSON.stringify(req.headers)}\n${req.body.toString('latin1')}`;
      expect(wire).not.toContain(TOKEN);
      expect(wire.toLowerCase()).not.toContain(TOKEN.toLowerCase());
    }
    // the credential the upstream got is the seat's own key, in the family's header
    const last = fx.b.requests.at(-1)!;
    if (family === 'openai') {
      expect(last.headers.authorization).toBe(`Bearer ${fx.t.keys.b}`);
      expect(last.headers['x-api-key']).toBeUndefined();
    } else {
      expect(last.headers['x-api-key']).toBe(fx.t.keys.b);
      expect(last.headers.authorization).toBeUndefined();
    }
  });

  it('/healthz needs no token; /status and /v1/models do', async () => {
    expect((await fetch(`${fx.t.url}/healthz`)).status).toBe(200);
    for (const path of ['/status', '/v1/models']) {
      const refusedRes = await fetch(fx.t.url + path);
      expect(refusedRes.status).toBe(401);
      expectOpenAiError(await refusedRes.json(), 'invalid_api_key');
      expect((await fetch(fx.t.url + path, { headers: { 'x-api-key': TOKEN } })).status).toBe(200);
    }
  });
});
