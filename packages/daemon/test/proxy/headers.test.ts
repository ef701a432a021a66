import { describe, expect, it } from 'vitest';
import type { SeatAuth } from '@routeplane/shared';
import type { ResolvedSeat } from '../../src/context.js';
import { relayedResponseHeaders, upstreamRequestHeaders } from '../../src/proxy/headers.js';
import { seatHeaders } from '../../src/proxy/seat-headers.js';

function seat(provider: 'anthropic' | 'openai', headers: Record<string, string> = {}, auth?: SeatAuth): ResolvedSeat {
  const kind = auth ?? (provider === 'anthropic' ? 'x-api-key' : 'bearer');
  const keyed = kind === 'x-api-key' || kind === 'bearer';
  return {
    id: 's',
    provider,
    auth: kind,
    base_url: 'http://h',
    api_path: '/v1',
    ...(keyed ? { api_key_env: 'K' } : {}),
    headers,
    reserve_pct: 0,
    extra_usage: 'allow',
    price: null,
    apiKey: keyed ? 'seat-secret' : null,
  };
}

/** What Claude Code logged in to a subscription sends (seen against a capture server). */
const CLAUDE_LOGIN = {
  authorization: 'Bearer sk-ant-oat01-agent-login',
  'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14',
  'anthropic-version': '2023-06-01',
  'x-app': 'cli',
  'x-routeplane-token': 'daemon-token',
};

/** What Codex logged in with ChatGPT sends. */
const CODEX_LOGIN = { authorization: 'Bearer eyJ.codex.jwt', 'chatgpt-account-id': 'acct-123', originator: 'codex_exec' };

describe('headers across the proxy', () => {
  it('drops hop-by-hop, connection-named and agent credential headers, keeps the rest', () => {
    const out = upstreamRequestHeaders(
      {
        connection: 'keep-alive, x-drop-me',
        'keep-alive': 'timeout=5',
        'x-drop-me': '1',
        te: 'trailers',
        'transfer-encoding': 'chunked',
        upgrade: 'h2c',
        'proxy-authorization': 'Basic x',
        authorization: 'Bearer agent-token',
        'x-api-key': 'agent-key',
        host: 'localhost:4141',
        'content-length': '10',
        expect: '100-continue',
        'anthropic-beta': 'tools-2024',
        'accept-encoding': 'gzip',
        'user-agent': 'claude-code',
      },
      seatHeaders(seat('anthropic')),
    );
    expect(out).toEqual({
      'anthropic-beta': 'tools-2024',
      'accept-encoding': 'gzip',
      'user-agent': 'claude-code',
      'anthropic-version': '2023-06-01',
      'x-api-key': 'seat-secret',
    });
  });

  it('sets the OpenAI seat key as a Bearer token and never an x-api-key', () => {
    const out = upstreamRequestHeaders({ 'x-api-key': 'agent', authorization: 'Bearer agent' }, seatHeaders(seat('openai')));
    expect(out).toEqual({ authorization: 'Bearer seat-secret' });
  });

  it("keeps the agent's anthropic-version and adds the seat's extra headers", () => {
    const out = upstreamRequestHeaders(
      { 'anthropic-version': '2024-01-01' },
      seatHeaders(seat('anthropic', { 'HTTP-Referer': 'https://x', 'X-Title': 't' })),
    );
    expect(out).toEqual({ 'anthropic-version': '2024-01-01', 'http-referer': 'https://x', 'x-title': 't', 'x-api-key': 'seat-secret' });
  });

  it('a seat header cannot replace the seat credential', () => {
    const out = upstreamRequestHeaders({}, seatHeaders(seat('openai', { Authorization: 'Bearer other' })));
    expect(out.authorization).toBe('Bearer seat-secret');
  });

  it('relays upstream headers except hop-by-hop, set-cookie and anything echoing a secret', () => {
    const out = relayedResponseHeaders(
      {
        'content-type': 'text/event-stream',
        'content-encoding': 'gzip',
        connection: 'keep-alive, x-hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        'transfer-encoding': 'chunked',
        trailer: 'x',
        'set-cookie': ['a=1', 'b=2'],
        'x-echo': 'you sent seat-secret',
        'request-id': 'req_1',
        'retry-after': '3',
      },
      ['seat-secret'],
    );
    expect(out).toEqual({ 'content-type': 'text/event-stream', 'content-encoding': 'gzip', 'request-id': 'req_1', 'retry-after': '3' });
  });

  describe('per auth kind', () => {
    it('x-api-key: the seat key as x-api-key; the login, its oauth beta and the daemon token stay here', () => {
      expect(upstreamRequestHeaders(CLAUDE_LOGIN, seatHeaders(seat('anthropic')))).toEqual({
        'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14',
        'anthropic-version': '2023-06-01',
        'x-app': 'cli',
        'x-api-key': 'seat-secret',
      });
    });

    it('bearer: the seat key as Authorization: Bearer and no x-api-key, for either family', () => {
      const anthropic = upstreamRequestHeaders({ ...CLAUDE_LOGIN, 'x-api-key': 'agent' }, seatHeaders(seat('anthropic', {}, 'bearer')));
      expect(anthropic.authorization).toBe('Bearer seat-secret');
      expect(anthropic['x-api-key']).toBeUndefined();
      expect(anthropic['anthropic-version']).toBe('2023-06-01');
      const openai = upstreamRequestHeaders(CODEX_LOGIN, seatHeaders(seat('openai', {}, 'bearer')));
      expect(openai).toEqual({ authorization: 'Bearer seat-secret', originator: 'codex_exec' });
    });

    it("passthrough: the agent's login byte for byte (authorization, x-api-key, chatgpt-account-id), no key added, the daemon token never", () => {
      const claude = upstreamRequestHeaders(CLAUDE_LOGIN, seatHeaders(seat('anthropic', {}, 'passthrough')));
      expect(claude).toEqual({
        authorization: 'Bearer sk-ant-oat01-agent-login',
        'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14',
        'anthropic-version': '2023-06-01',
        'x-app': 'cli',
      });
      expect(upstreamRequestHeaders(CODEX_LOGIN, seatHeaders(seat('openai', {}, 'passthrough')))).toEqual(CODEX_LOGIN);
      const apiKey = upstreamRequestHeaders({ 'x-api-key': 'sk-ant-api03-agent' }, seatHeaders(seat('anthropic', {}, 'passthrough')));
      expect(apiKey).toEqual({ 'x-api-key': 'sk-ant-api03-agent', 'anthropic-version': '2023-06-01' });
    });

    it('none: no credential at all, not even one configured as a header', () => {
      const out = upstreamRequestHeaders(
        { ...CODEX_LOGIN, 'x-api-key': 'agent' },
        seatHeaders(seat('openai', { Authorization: 'Bearer configured', 'X-Title': 't' }, 'none')),
      );
      expect(out).toEqual({ originator: 'codex_exec', 'x-title': 't' });
    });

    it('anthropic-version is added to an Anthropic seat whatever its auth, never to an OpenAI one', () => {
      for (const auth of ['x-api-key', 'bearer', 'passthrough', 'none'] as const) {
        expect(upstreamRequestHeaders({}, seatHeaders(seat('anthropic', {}, auth)))['anthropic-version']).toBe('2023-06-01');
        expect(upstreamRequestHeaders({}, seatHeaders(seat('openai', {}, auth)))['anthropic-version']).toBeUndefined();
      }
    });
  });

  describe('anthropic-beta on a seat', () => {
    it("adds the seat's values after the agent's, each once, trimmed (the spec's example)", () => {
      const out = upstreamRequestHeaders(
        { 'anthropic-beta': 'a-1,oauth-2025-04-20' },
        seatHeaders(seat('anthropic', { 'anthropic-beta': ' oauth-2025-04-20 , foo-1' }, 'bearer')),
      );
      expect(out['anthropic-beta']).toBe('a-1,oauth-2025-04-20,foo-1');
    });

    it("a passthrough seat adds its values to the login's and keeps oauth-2025-04-20", () => {
      const out = upstreamRequestHeaders(CLAUDE_LOGIN, seatHeaders(seat('anthropic', { 'Anthropic-Beta': 'foo-1' }, 'passthrough')));
      expect(out['anthropic-beta']).toBe('claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14,foo-1');
    });

    it('a key seat drops the oauth value and the header when nothing else is left; it adds its own when the agent sent none', () => {
      expect(
        upstreamRequestHeaders({ 'anthropic-beta': 'oauth-2025-04-20' }, seatHeaders(seat('anthropic')))['anthropic-beta'],
      ).toBeUndefined();
      expect(upstreamRequestHeaders({}, seatHeaders(seat('anthropic', { 'anthropic-beta': 'x-1,x-1' })))['anthropic-beta']).toBe('x-1');
    });

    it('an agent value the seat does not change goes exactly as the agent wrote it', () => {
      const out = upstreamRequestHeaders({ 'anthropic-beta': 'a-1, b-2' }, seatHeaders(seat('anthropic')));
      expect(out['anthropic-beta']).toBe('a-1, b-2');
    });
  });

  it('chatgpt-account-id goes only to a passthrough seat; a seat may configure its own', () => {
    expect(upstreamRequestHeaders(CODEX_LOGIN, seatHeaders(seat('openai')))['chatgpt-account-id']).toBeUndefined();
    const own = upstreamRequestHeaders(CODEX_LOGIN, seatHeaders(seat('openai', { 'ChatGPT-Account-Id': 'seat-acct' }, 'bearer')));
    expect(own['chatgpt-account-id']).toBe('seat-acct');
  });
});
