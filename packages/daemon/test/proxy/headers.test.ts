import { describe, expect, it } from 'vitest';
import type { ResolvedSeat } from '../../src/context.js';
import { relayedResponseHeaders, seatHeaders, upstreamRequestHeaders } from '../../src/proxy/headers.js';

function seat(provider: 'anthropic' | 'openai', headers: Record<string, string> = {}): ResolvedSeat {
  return { id: 's', provider, base_url: 'http://h', api_key_env: 'K', headers, reserve_pct: 0, price: null, apiKey: 'seat-secret' };
}

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
});
