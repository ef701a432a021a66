/** The small facts the proxy asks of the translation layer: local token estimates, wires of paths, the Codex backend. */
import { describe, expect, it } from 'vitest';
import { estimateInputTokens, isCodexBackend, wireOfPath } from '../../src/translate/index.js';

describe('estimateInputTokens', () => {
  it('is ⌈B/4⌉ over the compact JSON bytes of system, messages and tools', () => {
    const body = {
      model: 'sonnet',
      max_tokens: 100,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'héllo' }],
      metadata: { user_id: 'ignored' },
    };
    const bytes = Buffer.byteLength('"Be brief."') + Buffer.byteLength('[{"role":"user","content":"héllo"}]');
    expect(estimateInputTokens(Buffer.from(JSON.stringify(body)))).toBe(Math.ceil(bytes / 4));
    const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
    expect(estimateInputTokens(Buffer.from(JSON.stringify({ messages: [], tools })))).toBe(
      Math.ceil((2 + JSON.stringify(tools).length) / 4),
    );
    expect(estimateInputTokens(Buffer.from('{"model":"x"}'))).toBe(0);
    expect(estimateInputTokens(Buffer.from('not json'))).toBe(0);
  });
});

describe('wireOfPath', () => {
  it('names the generation paths, ignoring the query string', () => {
    expect(wireOfPath('/v1/messages?beta=true')).toBe('messages');
    expect(wireOfPath('/v1/chat/completions')).toBe('chat');
    expect(wireOfPath('/v1/responses')).toBe('responses');
    expect(wireOfPath('/v1/messages/count_tokens')).toBeNull();
    expect(wireOfPath('/v1/embeddings')).toBeNull();
  });
});

describe('isCodexBackend', () => {
  it('is a base_url whose path ends in /backend-api/codex, on any host', () => {
    expect(isCodexBackend('https://chatgpt.com/backend-api/codex')).toBe(true);
    expect(isCodexBackend('http://127.0.0.1:8080/backend-api/codex/')).toBe(true);
    expect(isCodexBackend('https://api.openai.com/v1')).toBe(false);
    expect(isCodexBackend('https://chatgpt.com/backend-api/codex/v1')).toBe(false);
    expect(isCodexBackend('not a url')).toBe(false);
  });
});
