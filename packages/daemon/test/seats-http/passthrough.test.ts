import { describe, expect, it } from 'vitest';
import { expectAnthropicError, expectOpenAiError, expectRouteplaneHeaders, type Json } from '../helpers/error-shapes.js';
import { isBreaker } from '../helpers/events.js';
import { respond, type Behaviour } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { anthropic } from '../signals/fixtures.js';
import { answer, attemptsOf, controlSnapshot, epochSecondsIn } from '../signals-http/support.js';
import { loginThenKey, seatFixtures } from './support.js';

/**
 * A seat that is the agent's own login (`auth: passthrough`), over real HTTP:
 * a request without credentials skips it (not an attempt, no breaker), and
 * gets 401 when nothing else can serve; the login's own 401/403 goes back to
 * the agent as it came, redacted, with no breaker and no fail-over; a plan
 * whose window is spent trips the login seat's quota and the work moves to
 * the key seat — whose upstream never sees the login.
 */

const LOGIN = 'sk-ant-oat01-Xy7Q-passthrough-login-0123456789';
const LOGIN_HEADERS = { authorization: `Bearer ${LOGIN}`, 'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20' };

const fx = seatFixtures();

const messages = (t: TestDaemon, model: string, headers: Record<string, string> = LOGIN_HEADERS) =>
  t.post('/v1/messages', { model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }, headers);

describe('a passthrough seat', () => {
  it('a request with no credentials skips it: no attempt, no breaker, the next target serves', async () => {
    const { t, login, key } = await loginThenKey(fx);
    const res = await messages(t, 'sonnet', { 'anthropic-beta': 'claude-code-20250219' });
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'api/claude-sonnet-5');
    expect(res.headers.get('x-routeplane-decision')).toBe(
      'api/claude-sonnet-5(healthy) -> claude-login/claude-sonnet-5(skipped: no_credentials)',
    );
    await res.text();
    const decision = await t.events.nextDecision();
    expect(decision.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['api', 'healthy', null],
      ['claude-login', 'skipped', 'no_credentials'],
    ]);
    expect(attemptsOf(decision)).toEqual([['api/claude-sonnet-5', 'ok', 200, 'ok']]);
    expect(login.requests).toHaveLength(0);
    expect(key.requests[0]!.headers['x-api-key']).toBe(t.keys.api);
    expect(t.context.influence.breakers()).toEqual([]);
    expect(t.context.counters.failovers).toBe(0);
  });

  it('nothing else can serve: 401 in the family shape, naming the seat, with the routeplane headers and one decision', async () => {
    const { t } = await loginThenKey(fx);
    const res = await messages(t, 'login-only', {});
    expect(res.status).toBe(401);
    expectRouteplaneHeaders(res, 0, null);
    expect(res.headers.get('x-routeplane-decision')).toBe('claude-login/claude-sonnet-5(skipped: no_credentials)');
    const body: Json = await res.json();
    expectAnthropicError(body, 'authentication_error');
    expect(body.error.message).toBe(
      `route "login-only": seat "claude-login" uses the agent's own login, and the request carried no credentials`,
    );
    const decision = await t.events.nextDecision();
    expect(decision).toMatchObject({ route: 'login-only', status: 401, attempts: [], served_by: null });
    expect(decision.chain).toEqual([
      { seat: 'claude-login', model: 'claude-sonnet-5', state: 'skipped', reason: 'no_credentials', pinned: false, left_ms: null },
    ]);

    // the OpenAI family answers in its own shape
    const gpt = await fx.upstream(respond.openaiChat());
    const codex = await fx.daemon({
      seats: [{ id: 'chatgpt', provider: 'openai', upstream: gpt, auth: 'passthrough' }],
      routes: [{ model: 'codex', chain: [{ seat: 'chatgpt', model: 'gpt-5' }] }],
    });
    const openai = await codex.post('/v1/responses', { model: 'codex', input: 'hi' });
    expect(openai.status).toBe(401);
    expectOpenAiError(await openai.json(), 'invalid_api_key');
    expect(gpt.requests).toHaveLength(0);
  });

  it('a pin to the login seat without credentials is answered 401, never re-routed to the key seat', async () => {
    const { t, key } = await loginThenKey(fx);
    const res = await messages(t, 'sonnet', { 'x-routeplane-pin': 'claude-login' });
    expect(res.status).toBe(401);
    await res.text();
    expect(key.requests).toHaveLength(0);
  });

  for (const status of [401, 403]) {
    it(`the login's own ${status} goes back to the agent as it came (retry-after, the body redacted): no breaker, no fail-over`, async () => {
      const echoed: Behaviour = answer(
        status,
        JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: `OAuth token has expired: ${LOGIN}` } }),
        { 'retry-after': '7', 'x-echo': `Bearer ${LOGIN}`, 'request-id': 'req_login' },
      );
      const { t, login, key } = await loginThenKey(fx, { login: echoed });
      const res = await messages(t, 'sonnet');
      expect(res.status).toBe(status);
      expectRouteplaneHeaders(res, 1, 'claude-login/claude-sonnet-5');
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.headers.get('request-id')).toBe('req_login');
      expect(res.headers.get('x-echo')).toBeNull();
      const text = await res.text();
      expect(text).not.toContain(LOGIN);
      expect(JSON.parse(text)).toEqual({
        type: 'error',
        error: { type: 'authentication_error', message: 'OAuth token has expired: [redacted]' },
      });
      const decision = await t.events.nextDecision();
      expect(attemptsOf(decision)).toEqual([['claude-login/claude-sonnet-5', 'http_4xx', status, 'none']]);
      expect(JSON.stringify(decision)).not.toContain(LOGIN);
      expect(key.requests).toHaveLength(0);
      expect(login.requests).toHaveLength(1);
      expect(t.context.influence.breakers()).toEqual([]);
      // the next agent, with a fresh login, is served by the login seat as before
      login.setDefault(respond.anthropicMessage());
      expect((await messages(t, 'sonnet')).headers.get('x-routeplane-target')).toBe('claude-login/claude-sonnet-5');
    });
  }

  it("a plan whose window is spent (unified rejected 429) trips the login seat's quota; its work moves to the key seat, which never sees the login", async () => {
    const reset = epochSecondsIn(3 * 3600);
    const spent = answer(429, anthropic.accountRateLimit, {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(reset),
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-5h-reset': String(reset),
    });
    const { t, login, key } = await loginThenKey(fx, { login: spent });
    const first = await messages(t, 'sonnet');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-routeplane-target')).toBe('api/claude-sonnet-5');
    await first.text();
    const failover = await t.events.nextDecision();
    expect(attemptsOf(failover)).toEqual([
      ['claude-login/claude-sonnet-5', 'http_429', 429, 'quota'],
      ['api/claude-sonnet-5', 'ok', 200, 'ok'],
    ]);
    const trip = await t.events.take(isBreaker('tripped', 'claude-login'));
    expect(trip.breaker).toMatchObject({ kind: 'quota', scope: 'seat', reset_at: reset * 1000 });

    const second = await messages(t, 'sonnet');
    expect(second.headers.get('x-routeplane-target')).toBe('api/claude-sonnet-5');
    expect(second.headers.get('x-routeplane-decision')).toMatch(
      /^api\/claude-sonnet-5\(healthy\) -> claude-login\/claude-sonnet-5\(tripped: quota, /,
    );
    await second.text();
    expect(login.requests).toHaveLength(1);
    expect(login.requests[0]!.headers.authorization).toBe(`Bearer ${LOGIN}`);
    for (const r of key.requests) {
      expect(JSON.stringify(r.headers)).not.toContain(LOGIN);
      expect(r.headers['anthropic-beta']).toBe('claude-code-20250219');
      expect(r.headers['x-api-key']).toBe(t.keys.api);
    }
    const snap = await controlSnapshot(t);
    expect(snap.seats.find((s) => s.id === 'claude-login')).toMatchObject({ auth: 'passthrough', usage: { extra_usage: false } });
  });
});
