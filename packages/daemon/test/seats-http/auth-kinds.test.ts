import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { respond, type Behaviour, type RecordedRequest } from '../helpers/fake-upstream.js';
import { seatFixtures } from './support.js';

/**
 * Each `auth` kind over real HTTP, read from what the seat's upstream
 * received: `x-api-key` and `bearer` send the seat's key (the agent's
 * credentials stay here), `passthrough` sends the agent's own login byte for
 * byte and no key, `none` sends no credential at all. Also `api_path` (the
 * ChatGPT Codex backend has no `/v1`), a merged `anthropic-beta` and seat
 * header values read from the environment.
 */

const CLAUDE_LOGIN = 'Bearer sk-ant-oat01-Hq3vZ-agent-login-0000';
const CODEX_JWT = 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl';
const ACCOUNT = '7f1c9e2a-4d2e-4b1a-9c3f-0a1b2c3d4e5f';
const REFERER = 'https://referer-from-env.example/secret-path';

const fx = seatFixtures();
const up = (behaviour?: Behaviour) => fx.upstream(behaviour);

describe('seats of every auth kind', () => {
  it('Anthropic family: x-api-key, bearer, passthrough and none, each as the seat says', async () => {
    const [key, bearer, login, none] = [await up(), await up(), await up(), await up()];
    const daemon = await fx.daemon({
      seats: [
        { id: 'key', provider: 'anthropic', upstream: key },
        {
          id: 'router',
          provider: 'anthropic',
          upstream: `${bearer.url}/api`,
          auth: 'bearer',
          headers: { 'X-Title': 'routeplane', 'HTTP-Referer': { env: 'RP_REFERER' }, 'anthropic-beta': 'seat-beta-1' },
        },
        { id: 'login', provider: 'anthropic', upstream: login, auth: 'passthrough' },
        { id: 'local', provider: 'anthropic', upstream: none, auth: 'none' },
      ],
      routes: ['key', 'router', 'login', 'local'].map((seat) => ({ model: seat, chain: [{ seat, model: 'claude-sonnet-5' }] })),
      env: { RP_REFERER: REFERER },
    });
    const agent = {
      authorization: CLAUDE_LOGIN,
      'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20',
      'x-app': 'cli',
    };
    for (const model of ['key', 'router', 'login', 'local']) {
      const res = await daemon.post('/v1/messages?beta=true', { model, max_tokens: 8, messages: [] }, agent);
      expect(res.status, model).toBe(200);
      await res.text();
    }

    const [k, b, l, n] = [key, bearer, login, none].map((u) => u.requests[0]!) as [
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
    ];
    expect(k.headers['x-api-key']).toBe(daemon.keys.key);
    expect(k.headers.authorization).toBeUndefined();
    expect(k.headers['anthropic-beta']).toBe('claude-code-20250219');
    expect(k.headers['anthropic-version']).toBe('2023-06-01');

    expect(b.url).toBe('/api/v1/messages?beta=true');
    expect(b.headers.authorization).toBe(`Bearer ${daemon.keys.router}`);
    expect(b.headers['x-api-key']).toBeUndefined();
    expect(b.headers['anthropic-beta']).toBe('claude-code-20250219,seat-beta-1');
    expect(b.headers['http-referer']).toBe(REFERER);
    expect(b.headers['x-title']).toBe('routeplane');

    expect(l.headers.authorization).toBe(CLAUDE_LOGIN);
    expect(l.headers['x-api-key']).toBeUndefined();
    expect(l.headers['anthropic-beta']).toBe('claude-code-20250219,oauth-2025-04-20');
    expect(l.headers['anthropic-version']).toBe('2023-06-01');
    expect(l.headers['x-app']).toBe('cli');

    expect(n.headers.authorization).toBeUndefined();
    expect(n.headers['x-api-key']).toBeUndefined();
    expect(n.headers['anthropic-version']).toBe('2023-06-01');

    const snapshotAuth = daemon.context.influence.seats().map((s) => [s.id, s.auth]);
    expect(snapshotAuth).toEqual([
      ['key', 'x-api-key'],
      ['router', 'bearer'],
      ['login', 'passthrough'],
      ['local', 'none'],
    ]);
  });

  it('OpenAI family: a ChatGPT login through a passthrough seat at a Codex backend (api_path ""), a local server with no key, a key seat', async () => {
    const codex = await up(respond.openaiChat());
    const local = await up(respond.openaiChat());
    const api = await up(respond.openaiChat());
    const daemon = await fx.daemon({
      seats: [
        { id: 'chatgpt', provider: 'openai', upstream: `${codex.url}/backend-api/codex`, auth: 'passthrough', api_path: '' },
        { id: 'ollama', provider: 'openai', upstream: `${local.url}/v1`, auth: 'none' },
        { id: 'api', provider: 'openai', upstream: `${api.url}/v1` },
      ],
      routes: ['chatgpt', 'ollama', 'api'].map((seat) => ({ model: seat, chain: [{ seat, model: 'gpt-5' }] })),
    });
    const agent = { authorization: CODEX_JWT, 'chatgpt-account-id': ACCOUNT, originator: 'codex_exec' };
    for (const model of ['chatgpt', 'ollama', 'api']) {
      const res = await daemon.post('/v1/chat/completions', { model, messages: [] }, agent);
      expect(res.status, model).toBe(200);
      await res.text();
    }
    const [c, o, a] = [codex, local, api].map((u) => u.requests[0]!) as [RecordedRequest, RecordedRequest, RecordedRequest];
    expect(c.url).toBe('/backend-api/codex/chat/completions');
    expect(c.headers.authorization).toBe(CODEX_JWT);
    expect(c.headers['chatgpt-account-id']).toBe(ACCOUNT);
    expect(c.headers['anthropic-version']).toBeUndefined();
    expect(o.url).toBe('/v1/chat/completions');
    expect(o.headers.authorization).toBeUndefined();
    expect(o.headers['chatgpt-account-id']).toBeUndefined();
    expect(a.headers.authorization).toBe(`Bearer ${daemon.keys.api}`);
    expect(a.headers['chatgpt-account-id']).toBeUndefined();
    for (const r of [c, o, a]) expect(r.headers.originator).toBe('codex_exec');
  });

  it('the official SDKs, as a logged-in client would use them, reach a passthrough seat with their own credentials', async () => {
    const claude = await up();
    const gpt = await up(respond.openaiChat());
    const daemon = await fx.daemon({
      seats: [
        { id: 'claude', provider: 'anthropic', upstream: claude, auth: 'passthrough' },
        { id: 'gpt', provider: 'openai', upstream: gpt, auth: 'passthrough' },
      ],
      routes: [
        { model: 'sonnet', chain: [{ seat: 'claude', model: 'claude-sonnet-5' }] },
        { model: 'codex', chain: [{ seat: 'gpt', model: 'gpt-5' }] },
      ],
    });
    const anthropicClient = new Anthropic({ baseURL: daemon.url, authToken: 'sk-ant-oat01-sdk-login-token', apiKey: null, maxRetries: 0 });
    const message = await anthropicClient.messages.create({ model: 'sonnet', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.model).toBe('claude-sonnet-5');
    expect(claude.requests[0]!.headers.authorization).toBe('Bearer sk-ant-oat01-sdk-login-token');
    const openaiClient = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: 'sk-proj-sdk-own-key-123', maxRetries: 0 });
    const chat = await openaiClient.chat.completions.create({ model: 'codex', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.model).toBe('gpt-5');
    expect(gpt.requests[0]!.headers.authorization).toBe('Bearer sk-proj-sdk-own-key-123');
  });
});
