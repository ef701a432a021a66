import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LineClient } from '../control/line-client.js';
import { type CliProcess, isolatedEnv, requireBuiltCli, spawnCli, tempHome } from '../helpers/cli-process.js';
import { startFakeUpstream, type Behaviour, type FakeUpstream, type RecordedRequest } from '../helpers/fake-upstream.js';

/**
 * The sweep for seats of every kind: `routeplane serve --log json` runs a
 * config with all four auth kinds (an API key as x-api-key, a bearer vendor
 * with header values from the environment, a Claude login and a ChatGPT
 * login passed through, a local server with no key), agents that send the
 * daemon's token beside their own login, and upstreams that echo every
 * credential they receive — in headers, in error bodies, in a 429 that trips
 * a breaker, in an error inside a 200. After a scripted run, no credential
 * of any kind (seat keys, header values from the environment, agent tokens,
 * passed-through logins) is in serve's stdout or stderr, the decision log,
 * a control reply or streamed event, `/status`, `/metrics`, or any response
 * header or error body an agent got.
 *
 * Known limit (as in secrets-everywhere.test.ts): a 2xx body is relayed byte
 * for byte, so the fakes never echo into a success body.
 */

const SECRETS = {
  keySeat: 'sk-ant-api03-KEYSEAT-8f2d61c0a9b74e35',
  routerKey: 'sk-or-v1-ROUTER-4c1e9a7b2d6f8e03',
  apiKey: 'sk-proj-APISEAT-9e7c5a3b1d0f2468',
  referer: 'https://referer.example/ENVHEADER-2b8d4f6a',
  headerSecret: 'ENVHEADER-SECRET-7a5c3e1b9d',
  token: 'rp-token-DEFAULT-5e3c1a9b7d',
  agentToken: 'rp-token-AGENTCI-1f3e5d7c9b',
  claudeLogin: 'sk-ant-oat01-CLAUDELOGIN-6d4b2f0e8c1a3579',
  claudeKeyLogin: 'sk-ant-api03-AGENTKEYLOGIN-0a2c4e6f8b',
  codexJwt: 'eyJhbGciOiJSUzI1NiJ9.eyJDT0RFWEpXVCI6InRlc3QifQ.c2lnLUNPREVYSldU',
  account: 'acct-CHATGPTACCOUNT-3b5d7f9a1c',
};

const ECHOED = ['authorization', 'x-api-key', 'chatgpt-account-id', 'http-referer', 'x-secret-header', 'x-routeplane-token'];

/** Everything credential-like the upstream received, joined. */
function received(req: RecordedRequest): string {
  return ECHOED.map((name) => req.headers[name])
    .filter((v) => v !== undefined)
    .join(' | ');
}

/** A provider that echoes what it was sent; `x-answer-SEAT` (forwarded from the agent) says how it answers. */
function echoing(seat: string, family: 'anthropic' | 'openai'): Behaviour {
  return (req, res) => {
    const how = String(req.headers[`x-answer-${seat}`] ?? '200');
    const seen = received(req);
    const echo = {
      'x-echo': seen,
      'www-authenticate': `Bearer realm="${seen}"`,
      'x-request-seen': String(req.headers['x-request-seen'] ?? ''),
    };
    const error = (status: number, extra: Record<string, string> = {}, type = 'fake_error') => {
      const body = JSON.stringify({ type: 'error', error: { type, message: `refused ${seen}`, headers: req.headers } });
      res.writeHead(status, { 'content-type': 'application/json', ...echo, ...extra });
      res.end(body);
    };
    const reset = String(Math.floor(Date.now() / 1000) + 3600);
    switch (how) {
      case '200':
      case '200-overage': {
        const overage =
          how === '200-overage' ? { 'anthropic-ratelimit-unified-overage-in-use': 'true', 'anthropic-ratelimit-unified-reset': reset } : {};
        const model = String(req.json?.model);
        const body =
          family === 'anthropic'
            ? {
                id: 'msg_1',
                type: 'message',
                role: 'assistant',
                model,
                content: [{ type: 'text', text: 'ok' }],
                stop_reason: 'end_turn',
                usage: { input_tokens: 1, output_tokens: 1 },
              }
            : {
                id: 'c1',
                object: 'chat.completion',
                model,
                choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
              };
        res.writeHead(200, { 'content-type': 'application/json', ...echo, ...overage, 'anthropic-ratelimit-unified-status': 'allowed' });
        res.end(JSON.stringify(body));
        return;
      }
      case '200-embedded':
        res.writeHead(200, { 'content-type': 'application/json', ...echo });
        res.end(JSON.stringify({ error: { code: 502, message: `upstream said no to ${seen}` } }));
        return;
      case '429-unified':
        return error(
          429,
          { 'anthropic-ratelimit-unified-status': 'rejected', 'anthropic-ratelimit-unified-reset': reset },
          'rate_limit_error',
        );
      case '429-codex':
        res.writeHead(429, { 'content-type': 'application/json', ...echo });
        res.end(JSON.stringify({ error: { type: 'usage_limit_reached', message: `limit for ${seen}`, resets_in_seconds: 3600 } }));
        return;
      default:
        return error(Number(how));
    }
  };
}

let serve: CliProcess | null = null;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  await serve?.kill();
  serve = null;
  for (const c of cleanups.splice(0).reverse()) await c();
});
beforeAll(requireBuiltCli);

describe('seats of every kind: no credential in any output', () => {
  it('after a scripted run over x-api-key, bearer, passthrough and none seats', async () => {
    const home = tempHome('rp-sweep-');
    cleanups.push(home.remove);
    const seats: Array<{ id: string; family: 'anthropic' | 'openai'; extra: Record<string, unknown> }> = [
      { id: 'key', family: 'anthropic', extra: { api_key_env: 'RP_KEY_SEAT' } },
      {
        id: 'router',
        family: 'anthropic',
        extra: {
          auth: 'bearer',
          api_key_env: 'RP_ROUTER_KEY',
          headers: { 'HTTP-Referer': { env: 'RP_REFERER' }, 'X-Secret-Header': { env: 'RP_HEADER_SECRET' } },
        },
      },
      { id: 'login', family: 'anthropic', extra: { auth: 'passthrough', extra_usage: 'avoid' } },
      { id: 'chatgpt', family: 'openai', extra: { auth: 'passthrough', api_path: '' } },
      { id: 'local', family: 'openai', extra: { auth: 'none' } },
      { id: 'api', family: 'openai', extra: { api_key_env: 'RP_API_KEY' } },
    ];
    const ups = new Map<string, FakeUpstream>();
    for (const s of seats) {
      const up = await startFakeUpstream(echoing(s.id, s.family));
      ups.set(s.id, up);
      cleanups.push(() => up.close());
    }
    const config = {
      server: { listen: '127.0.0.1:0', auth_token_env: 'RP_TOKEN', agents: [{ id: 'ci', token_env: 'RP_AGENT_CI' }] },
      control: { socket: join(home.dir, 'control.sock') },
      decision_log: { path: join(home.dir, 'decisions.ndjson') },
      seats: seats.map((s) => ({
        id: s.id,
        provider: s.family,
        base_url: s.id === 'chatgpt' ? `${ups.get(s.id)!.url}/backend-api/codex` : ups.get(s.id)!.url,
        ...s.extra,
      })),
      routes: [
        {
          model: 'claude',
          chain: [
            { seat: 'login', model: 'claude-sonnet-5' },
            { seat: 'router', model: 'claude-sonnet-5' },
            { seat: 'key', model: 'claude-sonnet-5' },
          ],
        },
        { model: 'claude-login', chain: [{ seat: 'login', model: 'claude-sonnet-5' }] },
        {
          model: 'codex',
          chain: [
            { seat: 'chatgpt', model: 'gpt-5' },
            { seat: 'local', model: 'llama' },
            { seat: 'api', model: 'gpt-5' },
          ],
        },
        { model: 'local', chain: [{ seat: 'local', model: 'llama' }] },
      ],
      influence: { enabled: true, cooldown_secs: 60, trip_threshold: 1 },
    };
    const file = join(home.dir, 'routeplane.yaml');
    // JSON is YAML: the config file as a person could write it
    await writeFile(file, JSON.stringify(config, null, 2));
    const env = {
      RP_KEY_SEAT: SECRETS.keySeat,
      RP_ROUTER_KEY: SECRETS.routerKey,
      RP_API_KEY: SECRETS.apiKey,
      RP_REFERER: SECRETS.referer,
      RP_HEADER_SECRET: SECRETS.headerSecret,
      RP_TOKEN: SECRETS.token,
      RP_AGENT_CI: SECRETS.agentToken,
    };
    serve = spawnCli(['serve', '--config', file, '--log', 'json'], isolatedEnv(home.dir, env), home.dir);
    const { url, socket } = await serve.listening();
    const subscriber = await LineClient.connect(socket);
    await subscriber.request('subscribe');

    const seen: string[] = [];
    let decisions = 0;
    const send = async (path: string, body: object, headers: Record<string, string>): Promise<Response> => {
      const res = await fetch(url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      seen.push(`${res.status} ${JSON.stringify([...res.headers])}`, await res.text());
      decisions++;
      return res;
    };
    const claudeAgent = {
      'x-routeplane-token': SECRETS.token,
      authorization: `Bearer ${SECRETS.claudeLogin}`,
      'anthropic-beta': 'oauth-2025-04-20',
    };
    const codexAgent = {
      'x-routeplane-token': SECRETS.agentToken,
      authorization: `Bearer ${SECRETS.codexJwt}`,
      'chatgpt-account-id': SECRETS.account,
    };
    const messages = (model: string, headers: Record<string, string>) =>
      send('/v1/messages', { model, max_tokens: 8, messages: [] }, headers);
    const chat = (model: string, headers: Record<string, string>) => send('/v1/chat/completions', { model, messages: [] }, headers);

    // the Claude login: served, its own 401 and 403 passed back, then its plan spent (a quota on the login seat)
    expect((await messages('claude', claudeAgent)).status).toBe(200);
    expect((await messages('claude', { ...claudeAgent, 'x-answer-login': '401' })).status).toBe(401);
    expect((await messages('claude', { ...claudeAgent, 'x-answer-login': '403' })).status).toBe(403);
    // an error inside a 200 from the login, then the bearer vendor refuses its key: the key seat serves
    expect((await messages('claude', { ...claudeAgent, 'x-answer-login': '200-embedded', 'x-answer-router': '401' })).status).toBe(200);
    expect((await messages('claude-login', { ...claudeAgent, 'x-answer-login': '429-unified' })).status).toBe(429);
    // an agent logged in with an API key of its own, to the login seat (probe it back first)
    expect(
      (
        await messages('claude-login', {
          'x-routeplane-token': SECRETS.token,
          'x-api-key': SECRETS.claudeKeyLogin,
          'x-answer-login': '400',
        })
      ).status,
    ).toBe(400);
    // the daemon token the old way: the login seat is skipped, and alone it cannot serve
    expect((await messages('claude-login', { authorization: `Bearer ${SECRETS.token}` })).status).toBe(401);
    expect(
      (await messages('claude', { 'x-api-key': SECRETS.agentToken, 'x-answer-router': '500', 'x-answer-key': '429-unified' })).status,
    ).toBe(500);
    // the ChatGPT login: its usage limit trips it, the local server errs, the key seat serves; a 403 of its own passed back
    expect((await chat('codex', { ...codexAgent, 'x-answer-chatgpt': '429-codex', 'x-answer-local': '500' })).status).toBe(200);
    expect((await chat('local', { ...codexAgent, 'x-answer-local': '400' })).status).toBe(400);
    // wrong tokens: refused before any route (no decision)
    for (const wrong of <Array<Record<string, string>>>[
      { 'x-routeplane-token': `${SECRETS.token}x`, authorization: `Bearer ${SECRETS.claudeLogin}` },
      { authorization: `Bearer ${SECRETS.claudeLogin}` },
    ]) {
      expect((await messages('claude', wrong)).status).toBe(401);
      decisions--;
    }
    // the login billed past its plan (extra_usage: avoid): relayed, and the seat held; a probe makes it ready again first
    const probeClient = await LineClient.connect(socket);
    expect((await probeClient.request('probe', { seat: 'login' })).ok).toBe(true);
    probeClient.close();
    expect((await messages('claude-login', { ...claudeAgent, 'x-answer-login': '200-overage' })).status).toBe(200);

    for (const path of ['/status', '/metrics', '/v1/models']) {
      const res = await fetch(url + path, { headers: { 'x-routeplane-token': SECRETS.token } });
      expect(res.status, path).toBe(200);
      seen.push(await res.text());
    }
    await subscriber.waitFor(() => subscriber.events().filter((e) => e.type === 'decision').length >= decisions, `${decisions} decisions`);

    // the credentials really were in play: each upstream got its own, and echoed it
    expect(ups.get('login')!.requests[0]!.headers.authorization).toBe(`Bearer ${SECRETS.claudeLogin}`);
    expect(ups.get('login')!.requests.some((r) => r.headers['x-api-key'] === SECRETS.claudeKeyLogin)).toBe(true);
    expect(ups.get('chatgpt')!.requests[0]!.headers['chatgpt-account-id']).toBe(SECRETS.account);
    expect(ups.get('router')!.requests[0]!.headers['http-referer']).toBe(SECRETS.referer);
    expect(ups.get('key')!.requests[0]!.headers['x-api-key']).toBe(SECRETS.keySeat);
    expect(ups.get('api')!.requests[0]!.headers.authorization).toBe(`Bearer ${SECRETS.apiKey}`);
    for (const up of ups.values()) for (const r of up.requests) expect(r.headers['x-routeplane-token']).toBeUndefined();

    const control = await LineClient.connect(socket);
    const replies = [
      await control.request('hello'),
      await control.request('snapshot'),
      await control.request('status'),
      await control.request('recent', { n: 100 }),
    ];
    control.close();
    expect(replies.map((r) => r.ok)).toEqual([true, true, true, true]);
    subscriber.close();
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    const decisionLog = await readFile(join(home.dir, 'decisions.ndjson'), 'utf8');
    expect(decisionLog.trim().split('\n')).toHaveLength(decisions);

    const outputs: Record<string, string> = {
      'response headers and bodies, /status, /metrics': seen.join('\n'),
      "serve's stdout": exit.stdout,
      "serve's stderr": exit.stderr,
      'decision log': decisionLog,
      'streamed events': JSON.stringify(subscriber.lines),
      'control replies': JSON.stringify(replies),
    };
    const leaks: string[] = [];
    for (const [where, text] of Object.entries(outputs)) {
      for (const [name, secret] of Object.entries(SECRETS)) if (text.includes(secret)) leaks.push(`${where} contains ${name}`);
    }
    expect(leaks).toEqual([]);
    // the run did what it says: echoes were redacted, breakers tripped, the seats' kinds are shown
    expect(outputs['response headers and bodies, /status, /metrics']).toContain('[redacted]');
    expect(exit.stderr).toContain('"type":"breaker"');
    const snapshot = replies[1]!.result;
    expect(snapshot.seats.map((s: { id: string; auth: string }) => [s.id, s.auth])).toEqual([
      ['key', 'x-api-key'],
      ['router', 'bearer'],
      ['login', 'passthrough'],
      ['chatgpt', 'passthrough'],
      ['local', 'none'],
      ['api', 'bearer'],
    ]);
    expect(snapshot.breakers.map((b: { key: string }) => b.key)).toEqual(
      expect.arrayContaining(['quota:login', 'quota:chatgpt', 'key_rejected:router']),
    );
  });
});
