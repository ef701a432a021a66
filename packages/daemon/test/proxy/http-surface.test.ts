import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { seatAuth } from '@routeplane/shared';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon, type TestDaemonOptions } from '../helpers/test-daemon.js';
import { CHAT, chatBody, MESSAGES, messagesBody } from '../helpers/two-seats.js';
import { readJson } from '../helpers/read-stream.js';

/**
 * What agents see of the daemon besides fail-over: routing by path and model,
 * the routeplane headers, the daemon's own endpoints, refusals.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function upstream(behaviour = respond.openaiChat()): Promise<FakeUpstream> {
  const up = await startFakeUpstream(behaviour);
  cleanups.push(() => up.close());
  return up;
}

async function daemon(opts: TestDaemonOptions): Promise<TestDaemon> {
  const t = await startTestDaemon(opts);
  cleanups.push(() => t.close());
  return t;
}

/** An OpenAI seat `o` and an Anthropic seat `x`; route `gpt` → o, `claude` → x, `mixed` → x then o. */
async function mixedDaemon(extra: Partial<TestDaemonOptions> = {}) {
  const o = await upstream(respond.openaiChat());
  const x = await upstream(respond.anthropicMessage());
  const t = await daemon({
    seats: [
      { id: 'o', provider: 'openai', upstream: o },
      { id: 'x', provider: 'anthropic', upstream: x, headers: { 'X-Title': 'routeplane-test' } },
    ],
    routes: [
      { model: 'gpt', chain: [{ seat: 'o', model: 'gpt-real' }] },
      { model: 'claude', chain: [{ seat: 'x', model: 'claude-real' }] },
      {
        model: 'mixed',
        chain: [
          { seat: 'x', model: 'claude-real' },
          { seat: 'o', model: 'gpt-real' },
        ],
      },
    ],
    ...extra,
  });
  return { o, x, t };
}

function expectRouteplaneHeaders(res: Response, attempts: number, target: string | null): void {
  expect(res.headers.get('x-routeplane-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.headers.get('x-routeplane-attempts')).toBe(String(attempts));
  expect(res.headers.get('x-routeplane-target')).toBe(target);
}

function expectNoRouteplaneHeaders(res: Response): void {
  for (const name of res.headers.keys()) expect(name.startsWith('x-routeplane-')).toBe(false);
}

/** POST with exactly these headers (fetch would add a content-type) and the path as written (no URL normalisation). */
function rawPost(
  base: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const options = { hostname, port, path, method: 'POST', headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } };
    const req = httpRequest(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('routing by path and model', () => {
  it('unknown model: 404 in the family shape listing the routes, with a decision', async () => {
    const { t } = await mixedDaemon();
    const res = await t.post(MESSAGES, messagesBody({ model: 'opus' }));
    expect(res.status).toBe(404);
    expectRouteplaneHeaders(res, 0, null);
    const body = await readJson(res);
    expect(body).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(body.error.message).toContain('"opus"');
    expect(body.error.message).toContain('"gpt", "claude", "mixed"');
    const d = await t.events.nextDecision();
    expect(d).toMatchObject({ route: 'opus', family: 'anthropic', status: 404, attempts: [], chain: [], served_by: null });

    const openai = await t.post(CHAT, chatBody({ model: '__proto__' }));
    expect(openai.status).toBe(404);
    expect((await readJson(openai)).error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found' });
  });

  it.each([
    ['not JSON', '{"model": "gpt",', 'not valid JSON'],
    ['no model', '{"messages": []}', 'no "model"'],
    ['model not a string', '{"model": 4}', 'must be a string'],
    ['an array', '[{"model": "gpt"}]', 'JSON object'],
    ['empty', '', 'empty'],
  ])('bad body (%s): 400 with a decision', async (_name, body, message) => {
    const { t } = await mixedDaemon();
    const res = await t.post(CHAT, body);
    expect(res.status).toBe(400);
    expectRouteplaneHeaders(res, 0, null);
    const json = await readJson(res);
    expect(json.error).toMatchObject({ type: 'invalid_request_error' });
    expect(json.error.message).toContain(message);
    expect(await t.events.nextDecision()).toMatchObject({ route: null, status: 400, attempts: [] });
  });

  it('oversized body: 413 with routeplane headers (attempts 0) and no decision', async () => {
    const { t, o } = await mixedDaemon({ server: { body_limit_mb: 0.01 } });
    const res = await t.post(CHAT, chatBody({ padding: 'x'.repeat(20_000) }));
    expect(res.status).toBe(413);
    expectRouteplaneHeaders(res, 0, null);
    expect((await readJson(res)).error).toMatchObject({ code: 'request_too_large', message: expect.stringContaining('body_limit_mb') });
    expect(o.requests).toHaveLength(0);
    // the next decision is the next request's: the 413 made none
    await t.post(CHAT, chatBody());
    expect(await t.events.nextDecision()).toMatchObject({ status: 200 });
    expect(t.events.all((e): e is never => e.type === 'decision')).toHaveLength(1);
  });

  it('a route with no target of the family: 400 naming route and family, skipped targets in the chain', async () => {
    const { t } = await mixedDaemon();
    const res = await t.post(CHAT, chatBody({ model: 'claude' }));
    expect(res.status).toBe(400);
    expectRouteplaneHeaders(res, 0, null);
    const body = await readJson(res);
    expect(body.error.message).toContain('"claude"');
    expect(body.error.message).toContain('openai');
    const d = await t.events.nextDecision();
    expect(d).toMatchObject({ route: 'claude', status: 400, attempts: [] });
    expect(d.chain).toEqual([{ seat: 'x', model: 'claude-real', state: 'skipped', reason: 'protocol', pinned: false, left_ms: null }]);
  });

  it('targets of the other family are skipped (reason protocol), never attempted', async () => {
    const { t, o, x } = await mixedDaemon();
    const res = await t.post(CHAT, chatBody({ model: 'mixed' }));
    expect(res.status).toBe(200);
    expectRouteplaneHeaders(res, 1, 'o/gpt-real');
    const d = await t.events.nextDecision();
    expect(d.chain).toEqual([
      { seat: 'o', model: 'gpt-real', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'x', model: 'claude-real', state: 'skipped', reason: 'protocol', pinned: false, left_ms: null },
    ]);
    expect(d.attempts.map((a) => a.seat)).toEqual(['o']);
    expect(o.requests).toHaveLength(1);
    expect(x.requests).toHaveLength(0);
  });

  it('picks the family by path ignoring the query string, and forwards the query unchanged', async () => {
    const { t, x } = await mixedDaemon();
    const res = await t.post('/v1/messages?beta=true', messagesBody());
    expect(res.status).toBe(200);
    expect(x.requests[0]!.url).toBe('/v1/messages?beta=true');
    const count = await t.post('/v1/messages/count_tokens', messagesBody());
    expect(count.status).toBe(200);
    expect(x.requests[1]!.url).toBe('/v1/messages/count_tokens');
    expect((await t.events.nextDecision()).family).toBe('anthropic');
  });

  it('accepts a body with no content-type, or another content-type, and forwards the bytes with only model changed', async () => {
    const { t, o } = await mixedDaemon();
    const body = '{ "messages" : [ {"role":"user","content":"é \\u00e9"} ],\n "model" : "gpt", "n": 1.0 }';
    expect((await rawPost(t.url, CHAT, body)).status).toBe(200);
    expect((await rawPost(t.url, CHAT, body, { 'content-type': 'text/plain' })).status).toBe(200);
    expect(o.requests[0]!.body.toString()).toBe(body.replace('"gpt"', '"gpt-real"'));
    expect(o.requests[1]!.body.toString()).toBe(body.replace('"gpt"', '"gpt-real"'));
  });

  it('refuses a path with dot segments (it could climb out of the seat base path)', async () => {
    const { t, o } = await mixedDaemon();
    for (const path of ['/v1/../admin', '/v1/./chat/completions', '/v1/%2E%2e/x?y=1']) {
      const res = await rawPost(t.url, path, JSON.stringify(chatBody()));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).error.message).toContain('segments');
    }
    expect(o.requests).toHaveLength(0);
  });

  it('forwards to base_url + path, without repeating /v1', async () => {
    const up = await upstream();
    const t = await daemon({
      seats: [
        { id: 'v1', provider: 'openai', upstream: `${up.url}/v1` },
        { id: 'api', provider: 'openai', upstream: `${up.url}/api/` },
      ],
      routes: [
        { model: 'one', chain: [{ seat: 'v1', model: 'm' }] },
        { model: 'two', chain: [{ seat: 'api', model: 'm' }] },
      ],
    });
    await t.post('/v1/chat/completions?x=1', chatBody({ model: 'one' }));
    await t.post('/v1/embeddings', chatBody({ model: 'two' }));
    expect(up.requests.map((r) => r.url)).toEqual(['/v1/chat/completions?x=1', '/api/v1/embeddings']);
  });
});

describe('headers', () => {
  it('sets seat credentials and extras, drops agent credentials, forwards the rest, adds anthropic-version when absent', async () => {
    const { t, x } = await mixedDaemon();
    await t.post(MESSAGES, messagesBody(), {
      authorization: 'Bearer agent-token',
      'x-api-key': 'agent-key',
      'anthropic-beta': 'tools-2024-04-04',
      'x-custom': 'kept',
    });
    const seen = x.requests[0]!.headers;
    expect(seen['x-api-key']).toBe(t.keys.x);
    expect(seen.authorization).toBeUndefined();
    expect(seen['anthropic-version']).toBe('2023-06-01');
    expect(seen['anthropic-beta']).toBe('tools-2024-04-04');
    expect(seen['x-custom']).toBe('kept');
    expect(seen['x-title']).toBe('routeplane-test');
  });

  it('does not relay set-cookie or hop-by-hop response headers', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': 'session=1',
        'x-kept': 'yes',
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
      });
      res.end('{}');
    });
    const t = await daemon({
      seats: [{ id: 'o', provider: 'openai', upstream: up }],
      routes: [{ model: 'gpt', chain: [{ seat: 'o', model: 'm' }] }],
    });
    const res = await t.post(CHAT, chatBody());
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('x-hop')).toBeNull();
    expect(res.headers.get('x-kept')).toBe('yes');
  });
});

describe("the daemon's own endpoints", () => {
  it('/healthz, /status and /v1/models answer without routeplane headers', async () => {
    const { t } = await mixedDaemon();
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expectNoRouteplaneHeaders(health);

    const status = await fetch(`${t.url}/status`);
    expect(status.status).toBe(200);
    expectNoRouteplaneHeaders(status);
    const summary = await readJson(status);
    expect(summary).toEqual({
      now: expect.any(Number),
      daemon: { ...identity(t), store: expect.objectContaining({ kind: 'memory', state: 'ok' }) },
      counters: expect.any(Object),
      open: t.context.influence.open(),
      tokens: expect.any(Object),
      seats: t.context.config.seats.map((s) => ({ id: s.id, provider: s.provider, auth: seatAuth(s), usage: null })),
    });

    const models = await fetch(`${t.url}/v1/models`);
    expectNoRouteplaneHeaders(models);
    const list = await readJson(models);
    expect(list.object).toBe('list');
    expect(list.data.map((m: { id: string; object: string }) => [m.id, m.object])).toEqual([
      ['gpt', 'model'],
      ['claude', 'model'],
      ['mixed', 'model'],
    ]);
  });

  it('a huge header gets 431 in an error shape, and the daemon keeps serving', async () => {
    const { t } = await mixedDaemon();
    const res = await rawPost(t.url, MESSAGES, JSON.stringify(messagesBody()), { 'x-huge': 'h'.repeat(64 * 1024) });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((await t.post(CHAT, chatBody())).status).toBe(200);
  });

  it('wrong method on /v1/* is 405, an unknown path 404, both in an error shape', async () => {
    const { t } = await mixedDaemon();
    const get = await fetch(`${t.url}/v1/messages`);
    expect(get.status).toBe(405);
    expect(await readJson(get)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const nope = await fetch(`${t.url}/nope`, { method: 'POST', body: '{}' });
    expect(nope.status).toBe(404);
    expect((await readJson(nope)).error.code).toBe('unknown_path');
  });
});

describe('agent token (server.auth_token_env)', () => {
  const TOKEN = 'rp-agent-token-5b0c1d';

  it('refuses a missing or wrong token with 401 in the family shape, no decision; /healthz needs none', async () => {
    const { t, o } = await mixedDaemon({ server: { auth_token: TOKEN } });
    const none = await t.post(MESSAGES, messagesBody());
    expect(none.status).toBe(401);
    expectRouteplaneHeaders(none, 0, null);
    expect(await readJson(none)).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    const wrong = await t.post(CHAT, chatBody(), { authorization: `Bearer ${TOKEN}x` });
    expect(wrong.status).toBe(401);
    expect((await readJson(wrong)).error.code).toBe('invalid_api_key');
    expect((await fetch(`${t.url}/status`)).status).toBe(401);
    expect((await fetch(`${t.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect(o.requests).toHaveLength(0);
    expect(t.events.events).toEqual([]);
  });

  it('accepts the token as Bearer (any scheme case) or x-api-key and never forwards it', async () => {
    const { t, o, x } = await mixedDaemon({ server: { auth_token: TOKEN } });
    expect((await t.post(CHAT, chatBody(), { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    expect((await t.post(MESSAGES, messagesBody(), { 'x-api-key': TOKEN })).status).toBe(200);
    expect((await fetch(`${t.url}/v1/models`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    for (const req of [...o.requests, ...x.requests]) expect(JSON.stringify(req.headers)).not.toContain(TOKEN);
  });
});

function identity(t: { url: string; context: { startedAt: number } }) {
  return { version: expect.any(String), pid: process.pid, started_at: t.context.startedAt, http_url: t.url, config_path: null };
}
