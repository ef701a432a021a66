import { describe, expect, it } from 'vitest';
import { joinUpstreamUrl } from '../../src/proxy/upstream-url.js';

describe('upstream URL joining (base_url + inbound path)', () => {
  it('appends the inbound path to a bare host', () => {
    expect(joinUpstreamUrl('https://api.anthropic.com', '/v1/messages')).toBe('https://api.anthropic.com/v1/messages');
    expect(joinUpstreamUrl('https://api.anthropic.com/', '/v1/messages')).toBe('https://api.anthropic.com/v1/messages');
  });

  it('does not repeat /v1 when base_url already ends in /v1', () => {
    expect(joinUpstreamUrl('http://h:1/v1', '/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect(joinUpstreamUrl('http://h:1/v1/', '/v1/chat/completions')).toBe('http://h:1/v1/chat/completions');
    expect(joinUpstreamUrl('https://openrouter.ai/api/v1', '/v1/chat/completions')).toBe('https://openrouter.ai/api/v1/chat/completions');
  });

  it('keeps a base path that does not end in /v1', () => {
    expect(joinUpstreamUrl('https://h/api', '/v1/chat/completions')).toBe('https://h/api/v1/chat/completions');
    expect(joinUpstreamUrl('https://h/v1beta', '/v1/chat/completions')).toBe('https://h/v1beta/v1/chat/completions');
    expect(joinUpstreamUrl('https://h/v1/x', '/v1/chat/completions')).toBe('https://h/v1/x/v1/chat/completions');
  });

  it('forwards the query string unchanged', () => {
    expect(joinUpstreamUrl('https://h', '/v1/messages?beta=true')).toBe('https://h/v1/messages?beta=true');
    expect(joinUpstreamUrl('http://h:1/v1', '/v1/messages?beta=true&x=%20')).toBe('http://h:1/v1/messages?beta=true&x=%20');
  });

  describe('api_path replaces the inbound /v1', () => {
    it('ChatGPT\'s Codex backend has no /v1: api_path ""', () => {
      expect(joinUpstreamUrl('https://chatgpt.com/backend-api/codex', '/v1/responses', '')).toBe(
        'https://chatgpt.com/backend-api/codex/responses',
      );
      expect(joinUpstreamUrl('https://chatgpt.com/backend-api/codex/', '/v1/responses?x=1', '')).toBe(
        'https://chatgpt.com/backend-api/codex/responses?x=1',
      );
    });

    it('the default /v1 keeps the rules above; OpenRouter and a bare host as the spec writes them', () => {
      expect(joinUpstreamUrl('https://openrouter.ai/api', '/v1/messages', '/v1')).toBe('https://openrouter.ai/api/v1/messages');
      expect(joinUpstreamUrl('https://api.anthropic.com', '/v1/messages?beta=true', '/v1')).toBe(
        'https://api.anthropic.com/v1/messages?beta=true',
      );
    });

    it('another api_path is put in place of /v1, and not repeated when the base path already ends in it', () => {
      expect(joinUpstreamUrl('https://h', '/v1/chat/completions', '/api/v2')).toBe('https://h/api/v2/chat/completions');
      expect(joinUpstreamUrl('https://h/api/v2', '/v1/chat/completions', '/api/v2')).toBe('https://h/api/v2/chat/completions');
      // only a whole segment counts as ending in it
      expect(joinUpstreamUrl('https://h/xapi/v2', '/v1/chat/completions', '/api/v2')).toBe('https://h/xapi/v2/api/v2/chat/completions');
      expect(joinUpstreamUrl('https://h/v1', '/v1/chat/completions', '')).toBe('https://h/v1/chat/completions');
    });
  });
});
