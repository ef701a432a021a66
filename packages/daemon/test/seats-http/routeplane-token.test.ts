import { describe, expect, it } from 'vitest';
import { expectAnthropicError, expectRouteplaneHeaders, type Json } from '../helpers/error-shapes.js';
import { loginThenKey, seatFixtures } from './support.js';

/**
 * The daemon's own token beside the agent's login: sent as
 * `x-routeplane-token`, it alone is checked and never forwarded, and the
 * agent's `Authorization` passes through to the login seat. Sent the old way
 * (in `Authorization`), it is taken off, so the login seat finds no
 * credentials. `/v1/models`, `/status` and `/metrics` take it the same ways.
 */

const TOKEN = 'rp-daemon-token-Lx81Qe0v';
const LOGIN = 'Bearer sk-ant-oat01-Token-Test-Login-abcdef';

const fx = seatFixtures();
const start = () => loginThenKey(fx, { server: { auth_token: TOKEN } });

const body = { model: 'sonnet', max_tokens: 8, messages: [] };

describe('x-routeplane-token', () => {
  it("carries the daemon's token beside the agent's login: the login goes to the login seat, the token nowhere", async () => {
    const { t, login, key } = await start();
    const res = await t.post('/v1/messages', body, { 'x-routeplane-token': TOKEN, authorization: LOGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('claude-login/claude-sonnet-5');
    await res.text();
    expect(login.requests[0]!.headers.authorization).toBe(LOGIN);
    expect(login.requests[0]!.headers['x-routeplane-token']).toBeUndefined();
    expect(key.requests).toHaveLength(0);
    expect(JSON.stringify(login.requests[0]!.headers)).not.toContain(TOKEN);
  });

  it('a wrong x-routeplane-token is a 401 whatever Authorization and x-api-key hold — the right token included', async () => {
    const { t, login, key } = await start();
    const res = await t.post('/v1/messages', body, { 'x-routeplane-token': 'wrong', authorization: `Bearer ${TOKEN}`, 'x-api-key': TOKEN });
    expect(res.status).toBe(401);
    expectRouteplaneHeaders(res, 0, null);
    const error: Json = await res.json();
    expectAnthropicError(error, 'authentication_error');
    expect(error.error.message).toContain('x-routeplane-token');
    expect(login.requests.length + key.requests.length).toBe(0);
  });

  it('the token sent the old way is taken off: the login seat then finds no credentials and the key seat serves', async () => {
    const { t, login, key } = await start();
    const res = await t.post('/v1/messages', body, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-decision')).toBe(
      'api/claude-sonnet-5(healthy) -> claude-login/claude-sonnet-5(skipped: no_credentials)',
    );
    await res.text();
    expect(login.requests).toHaveLength(0);
    expect(key.requests[0]!.headers.authorization).toBeUndefined();
    expect(JSON.stringify(key.requests[0]!.headers)).not.toContain(TOKEN);
  });

  it('the token in x-api-key, a login in Authorization: the login still passes through', async () => {
    const { t, login } = await start();
    const res = await t.post('/v1/messages', body, { 'x-api-key': TOKEN, authorization: LOGIN });
    expect(res.headers.get('x-routeplane-target')).toBe('claude-login/claude-sonnet-5');
    await res.text();
    expect(login.requests[0]!.headers.authorization).toBe(LOGIN);
    expect(login.requests[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('/v1/models, /status and /metrics accept it (and refuse a wrong one); /healthz needs none', async () => {
    const { t } = await start();
    for (const path of ['/v1/models', '/status', '/metrics']) {
      expect((await fetch(t.url + path, { headers: { 'x-routeplane-token': TOKEN } })).status, path).toBe(200);
      expect(
        (await fetch(t.url + path, { headers: { 'x-routeplane-token': 'nope', authorization: `Bearer ${TOKEN}` } })).status,
        path,
      ).toBe(401);
      expect((await fetch(t.url + path)).status, path).toBe(401);
    }
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});
