/**
 * Claude Code's own request shape, whole, onto a Chat Completions seat, and
 * the ~200-event answer that comes back (the same fixtures the translation
 * microbenchmark measures).
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { translateRequest } from '../../src/translate/index.js';
import { claudeCodeChatAnswer, claudeCodeRequest } from './fixtures/claude-code.js';
import { checkMessagesOrder } from './helpers/event-order.js';
import { feed } from './helpers/feed.js';
import { anthropicStream } from './helpers/sdk-accumulators.js';

describe('Claude Code on a chat seat', () => {
  it('translates the 110 KB request: system first, the mid-conversation system entry in place, tools kept, thinking gone', () => {
    const body = claudeCodeRequest();
    expect(body.length).toBe(110 * 1024);
    const result = translateRequest('messages', 'chat', body, {
      model: 'gpt-5',
      maxOutputTokens: 16_384,
      maxTokensField: 'max_completion_tokens',
      codexBackend: false,
    });
    if (!result.ok) throw new Error(result.detail);
    const chat = JSON.parse(result.body.toString()) as ChatCompletionCreateParamsStreaming;
    expect(result.droppedTools).toEqual([]);
    expect(result.upstreamStream).toBe(true);
    expect(chat).toMatchObject({
      model: 'gpt-5',
      max_completion_tokens: 16_384,
      temperature: 1,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(chat.tools).toHaveLength(16);
    const roles = chat.messages.map((m) => m.role);
    expect(roles.slice(0, 2)).toEqual(['system', 'user']);
    expect(roles.filter((r) => r === 'tool')).toHaveLength(6);
    expect(roles.indexOf('system', 1)).toBe(roles.lastIndexOf('system'));
    expect(chat.messages[roles.indexOf('system', 1)]).toEqual({
      role: 'system',
      content: 'The user changed the permission mode to acceptEdits.',
    });
    expect(
      chat.messages.find((m) => m.role === 'tool' && typeof m.content === 'string' && m.content.startsWith('[error] FAIL')),
    ).toBeDefined();
    expect(result.body.includes('"thinking"')).toBe(false);
    expect(result.body.includes('cache_control')).toBe(false);
  });

  it('streams its ~200-event answer back as one text block and one tool call', async () => {
    const upstream = claudeCodeChatAnswer();
    expect(upstream.length).toBe(200);
    const fed = feed(
      { agentWire: 'messages', upstreamWire: 'chat', agentStream: true, upstreamStream: true, includeUsage: false, declaredTools: null },
      upstream,
    );
    expect(fed.outcome).toEqual({ end: 'complete' });
    checkMessagesOrder(fed.bytes);
    const message = await anthropicStream(fed.chunks);
    expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use']);
    expect(message.content[1]).toMatchObject({ name: 'Bash', input: { command: 'pnpm test -- run src/run.test.ts', timeout: 120000 } });
    expect(message.usage).toMatchObject({ input_tokens: 2848, cache_read_input_tokens: 26_112, output_tokens: 376 });
  });
});
