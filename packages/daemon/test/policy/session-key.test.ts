import { createHash } from 'node:crypto';
import type { Family } from '@routeplane/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HeaderBag, sessionKey, sessionOf, sessionTag } from '../../src/policy/session-key.js';
import { readAgentBody } from '../../src/proxy/request-body.js';

/** The key of a request, read the way the forwarder reads it: one body scan, then the precedence. */
function keyOf(headers: HeaderBag, family: Family, body: unknown): string | null {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const read = readAgentBody(bytes);
  if (!read.ok) throw new Error(read.message);
  return sessionKey(headers, family, bytes, read.sessionSpans);
}

/** Every source, in the spec's order of precedence. */
const SOURCES = [
  { name: 'x-routeplane-session', kind: 'header', value: 'rp-session' },
  { name: 'x-claude-code-session-id', kind: 'header', value: 'cc-session' },
  { name: 'metadata.user_id', kind: 'anthropic', value: 'user_4f1e_account_9a2c_session_77b0' },
  { name: 'session-id', kind: 'header', value: 'codex-dash' },
  { name: 'session_id', kind: 'header', value: 'codex-underscore' },
  { name: 'prompt_cache_key', kind: 'openai', value: 'cache-key-1' },
] as const;

describe('the session key precedence', () => {
  // all 64 combinations of present sources, in both families
  const cases: [number, Family][] = [];
  for (let mask = 0; mask < 64; mask++) for (const family of ['anthropic', 'openai'] as const) cases.push([mask, family]);

  it.each(cases)('sources %i in family %s: the first present one of its family', (mask, family) => {
    const headers: Record<string, string> = {};
    const body: Record<string, unknown> = { model: 'sonnet', messages: [{ role: 'user', content: 'hi' }] };
    SOURCES.forEach((s, i) => {
      if ((mask & (1 << i)) === 0) return;
      if (s.kind === 'header') headers[s.name] = s.value;
      else if (s.kind === 'anthropic') body.metadata = { user_id: s.value };
      else body.prompt_cache_key = s.value;
    });
    const expected = SOURCES.find((s, i) => (mask & (1 << i)) !== 0 && (s.kind === 'header' || s.kind === family));
    expect(keyOf(headers, family, body)).toBe(expected?.value ?? null);
  });
});

describe('reading the body members', () => {
  it('takes the whole metadata.user_id string, as Claude Code sends it', () => {
    const userId = 'user_0f9c2d5e1d7a2b_account_6c1b4b8e-9f5a-1a2b_session_5e1d7a2b-6c1b-4b8e-9f5a-1a2b3c4d5e6f';
    expect(keyOf({}, 'anthropic', { model: 'sonnet', max_tokens: 10, metadata: { user_id: userId }, messages: [] })).toBe(userId);
  });

  it('reads only the top-level members: a user_id or prompt_cache_key anywhere else is not a key', () => {
    const decoys = {
      model: 'sonnet',
      user_id: 'top-level',
      messages: [{ role: 'user', content: '{"metadata":{"user_id":"in a string"}}', metadata: { user_id: 'nested' } }],
      tools: [{ prompt_cache_key: 'nested' }],
    };
    expect(keyOf({}, 'anthropic', decoys)).toBeNull();
    expect(keyOf({}, 'openai', decoys)).toBeNull();
  });

  it('decodes escapes in keys and values, and the last duplicate wins, as JSON.parse does', () => {
    const text =
      '{"model":"m","metadata":{"user_id":"first"},"meta\\u0064ata":{"user\\u005fid":"caf\\u00e9 \\"q\\" \\ud83d\\ude42","user_id":"last"}}';
    expect(keyOf({}, 'anthropic', text)).toBe((JSON.parse(text) as { metadata: { user_id: string } }).metadata.user_id);
    const cache = '{"prompt_cache_key":"a","model":"m","prompt\\u005fcache_key":"caf\\u00e9"}';
    expect(keyOf({}, 'openai', cache)).toBe('café');
  });

  it.each([
    ['metadata is not an object', { metadata: 'user-1' }],
    ['metadata is an array', { metadata: [{ user_id: 'u' }] }],
    ['user_id is not a string', { metadata: { user_id: 42 } }],
    ['user_id is empty', { metadata: { user_id: '' } }],
    ['user_id is null', { metadata: { user_id: null } }],
    ['metadata has no user_id', { metadata: { other: 'x' } }],
  ])('%s: no key from the body, and the Codex header still counts', (_what, extra) => {
    const body = { model: 'sonnet', ...extra };
    expect(keyOf({}, 'anthropic', body)).toBeNull();
    expect(keyOf({ 'session-id': 'codex' }, 'anthropic', body)).toBe('codex');
  });

  it('a metadata object malformed inside (the top level is fine) gives no key, and the body still goes upstream', () => {
    const text = '{"model":"m","metadata":{"user_id" "x"}}';
    expect(readAgentBody(Buffer.from(text)).ok).toBe(true);
    expect(keyOf({}, 'anthropic', text)).toBeNull();
  });

  it.each([
    ['prompt_cache_key', 7],
    ['prompt_cache_key', ''],
    ['prompt_cache_key', { a: 1 }],
  ])('a %s of %j gives no key', (member, value) => {
    expect(keyOf({}, 'openai', { model: 'm', [member]: value })).toBeNull();
  });

  describe('a 200 KB agent body', () => {
    afterEach(() => vi.restoreAllMocks());

    it('finds the members after the big values without parsing the body whole', () => {
      const messages = Array.from({ length: 400 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'x'.repeat(500) }));
      const body = { model: 'sonnet', messages, metadata: { user_id: 'user_big' }, prompt_cache_key: 'pck' };
      const bytes = Buffer.from(JSON.stringify(body));
      expect(bytes.length).toBeGreaterThan(200_000);
      const parse = vi.spyOn(JSON, 'parse');
      const read = readAgentBody(bytes);
      if (!read.ok) throw new Error(read.message);
      expect(sessionKey({}, 'anthropic', bytes, read.sessionSpans)).toBe('user_big');
      expect(sessionKey({}, 'openai', bytes, read.sessionSpans)).toBe('pck');
      expect(parse).toHaveBeenCalled();
      for (const [text] of parse.mock.calls) expect(text.length).toBeLessThan(100);
    });
  });
});

describe('header values', () => {
  it('takes the first of repeated values, and an empty value counts as absent', () => {
    expect(
      sessionKey({ 'x-routeplane-session': ['one', 'two'] }, 'openai', Buffer.from('{}'), { metadata: null, promptCacheKey: null }),
    ).toBe('one');
    expect(
      sessionKey({ 'x-routeplane-session': '', 'x-claude-code-session-id': 'cc' }, 'openai', Buffer.from('{}'), {
        metadata: null,
        promptCacheKey: null,
      }),
    ).toBe('cc');
  });

  it('a UTF-8 header value (which Node reads byte by byte) is the text the agent sent', () => {
    const asNodeReadsIt = Buffer.from('sitzung-ü-🙂', 'utf8').toString('latin1');
    expect(
      sessionKey({ 'x-routeplane-session': asNodeReadsIt }, 'openai', Buffer.from('{}'), { metadata: null, promptCacheKey: null }),
    ).toBe('sitzung-ü-🙂');
  });
});

describe('what the decision records', () => {
  it('the tag is the first 12 hex digits of SHA-256 of the key, and never the key', () => {
    const key = 'user_0f9c2d_account_6c1b_session_5e1d';
    const tag = sessionTag(key);
    expect(tag).toBe(createHash('sha256').update(key).digest('hex').slice(0, 12));
    expect(tag).toMatch(/^[0-9a-f]{12}$/);
    expect(sessionOf({ 'x-routeplane-session': key }, 'openai', Buffer.from('{}'), { metadata: null, promptCacheKey: null })).toEqual({
      key,
      tag,
    });
  });

  it('no session: null, so the forwarder spreads the request with a random key', () => {
    const bytes = Buffer.from('{"model":"m"}');
    const read = readAgentBody(bytes);
    if (!read.ok) throw new Error(read.message);
    expect(sessionOf({ 'user-agent': 'claude-cli/2.0' }, 'anthropic', bytes, read.sessionSpans)).toBeNull();
  });
});
