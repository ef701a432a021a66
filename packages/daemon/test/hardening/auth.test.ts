import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { validateConfig, type Config } from '@routeplane/shared';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isDecision } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { startDaemon } from '../../src/start.js';
import { isolatedEnv, requireBuiltCli, spawnCli, tempHome, writeLines } from '../helpers/cli-process.js';
import { startHostile, type Family, type HostileFixture } from './fixture.js';
import { expectAnthropicError, expectOpenAiError, expectRouteplaneHeaders, rawRequest } from './support.js';

/**
 * The agent token (issue 7, Acceptance 2): a daemon listening beyond
 * loopback without `server.auth_token_env` refuses to start — from the
 * config loader (`routeplane serve`, exit 2) and from `startDaemon` itself;
 * with a token, a request without it or with a wrong one gets 401 in the
 * family shape, the right one is served, and no upstream ever sees it.
 *
 * The control socket being reachable by its owner alone (0600 in a 0700
 * directory) is proven by packages/daemon/test/control/socket-file.test.ts
 * and packages/tui/test/cli/serve.test.ts; not repeated here.
 */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function home(): string {
  const h = tempHome();
  cleanups.push(h.remove);
  return h.dir;
}

const KEY_ENV = { RP_SEC_KEY: 'sk-sec-test-0b7e2c9d41' };

function loopbackConfig(): Config {
  const result = validateConfig(
    {
      seats: [{ id: 'a', provider: 'openai', base_url: 'http://127.0.0.1:9', api_key_env: 'RP_SEC_KEY' }],
      routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'm' }] }],
    },
    'inline',
    KEY_ENV,
  );
  if (!result.ok) throw new Error('fixture config invalid');
  return result.config;
}

const NON_LOOPBACK = ['0.0.0.0:0', '[::]:0', '192.0.2.10:0', '10.1.2.3:0', 'localhost.example.com:0', '127.0.0.1.nip.io:0'];

describe('a non-loopback listen without auth_token_env refuses to start', () => {
  it.each(NON_LOOPBACK)('startDaemon with listen %s given as an override: refused before binding anything', async (listen) => {
    const dir = home();
    const socketPath = join(dir, 'run', 'control.sock');
    const started = startDaemon(loopbackConfig(), { env: KEY_ENV, listen, socketPath, decisionLogPath: join(dir, 'log', 'd.ndjson') });
    await expect(started).rejects.toThrow(`server.auth_token_env: required when listen (${listen}) is not a loopback address`);
    expect(existsSync(join(dir, 'run'))).toBe(false);
    expect(existsSync(join(dir, 'log'))).toBe(false);
  });

  it('startDaemon with a hand-built config that skipped validation: refused as well', async () => {
    const dir = home();
    const base = loopbackConfig();
    const config: Config = { ...base, server: { ...base.server, listen: '0.0.0.0:0' } };
    await expect(startDaemon(config, { env: KEY_ENV, socketPath: join(dir, 'c.sock'), decisionLogPath: false })).rejects.toThrow(
      'server.auth_token_env: required when listen (0.0.0.0:0) is not a loopback address',
    );
    expect(existsSync(join(dir, 'c.sock'))).toBe(false);
  });

  it.each(['localhost:0', '127.0.0.2:0'])('a loopback listen (%s) needs no token', async (listen) => {
    const dir = home();
    const daemon = await startDaemon(loopbackConfig(), { env: KEY_ENV, listen, socketPath: join(dir, 'c.sock'), decisionLogPath: false });
    cleanups.push(() => daemon.close(1_000));
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('routeplane serve refuses an unprotected or broken token config (exit 2, one line naming the key)', () => {
  beforeAll(requireBuiltCli);

  function serveConfig(dir: string, server: string[]): string {
    return writeLines(join(dir, 'routeplane.yaml'), [
      'server:',
      ...server,
      'control:',
      `  socket: "${join(dir, 'run', 'control.sock')}"`,
      'decision_log:',
      `  path: "${join(dir, 'decisions.ndjson')}"`,
      'seats:',
      '  - id: a',
      '    provider: openai',
      '    base_url: http://127.0.0.1:9',
      '    api_key_env: RP_SEC_KEY',
      'routes:',
      '  - model: gpt',
      '    chain:',
      '      - { seat: a, model: m }',
    ]);
  }

  async function expectConfigError(dir: string, file: string, env: Record<string, string>, message: string, port?: number): Promise<void> {
    const cli = spawnCli(['serve', '--config', file], isolatedEnv(dir, { ...KEY_ENV, ...env }), dir);
    cleanups.push(() => cli.kill());
    const exit = await cli.exited;
    expect(exit.code).toBe(2);
    expect(cli.stdout).toBe('');
    const lines = cli.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${escapeRegExp(file)}: server\\.auth_token_env: ${escapeRegExp(message)}( \\(line \\d+\\))?$`));
    expect(existsSync(join(dir, 'run', 'control.sock'))).toBe(false);
    if (port !== undefined) expect(await refused(port)).toBe(true);
    for (const value of Object.values(env)) if (value !== '') expect(cli.stderr).not.toContain(value);
  }

  it('listen 0.0.0.0 without auth_token_env', async () => {
    const dir = home();
    const port = await freePort();
    const file = serveConfig(dir, [`  listen: "0.0.0.0:${port}"`]);
    await expectConfigError(dir, file, {}, `required when listen (0.0.0.0:${port}) is not a loopback address`, port);
  });

  it('listen on an IPv6 wildcard without auth_token_env', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "[::]:4141"']);
    await expectConfigError(dir, file, {}, 'required when listen ([::]:4141) is not a loopback address');
  });

  it('auth_token_env naming a variable that is not set', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "127.0.0.1:0"', '  auth_token_env: RP_SEC_TOKEN_UNSET']);
    await expectConfigError(dir, file, {}, 'environment variable RP_SEC_TOKEN_UNSET is not set');
  });

  it('auth_token_env naming a variable that is empty', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "0.0.0.0:4141"', '  auth_token_env: RP_SEC_TOKEN_EMPTY']);
    await expectConfigError(dir, file, { RP_SEC_TOKEN_EMPTY: '' }, 'environment variable RP_SEC_TOKEN_EMPTY is not set');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

const TOKEN = 'rp-hardening-token-7Qz1x9LmA2';

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
