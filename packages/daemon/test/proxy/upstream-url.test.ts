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
});
