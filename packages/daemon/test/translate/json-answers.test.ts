/**
 * Whole (non-streamed) answers both ways between chat and messages, read
 * back by the official SDKs: ids, stop reasons, usage arithmetic, and the
 * bad answers the proxy counts as model errors.
 */
import { describe, expect, it } from 'vitest';
import { translateJsonAnswer } from '../../src/translate/index.js';
import { CHAT_ID, CHAT_MODEL, chatCompletion } from './fixtures/chat-upstream.js';
import { MESSAGE_ID, MESSAGE_MODEL, messagesAnswer } from './fixtures/messages-upstream.js';
import { CREATED, plan } from './helpers/feed.js';
import { anthropicJson, chatJson } from './helpers/sdk-accumulators.js';

const CHAT_TO_MESSAGES = plan('messages', 'chat', { agentStream: false, upstreamStream: false });
const MESSAGES_TO_CHAT = plan('chat', 'messages', { agentStream: false, upstreamStream: false });

function translated(p: typeof CHAT_TO_MESSAGES, body: Buffer) {
  const result = translateJsonAnswer(p, body, CREATED);
  if (!result.ok) throw new Error(`expected an answer, got a bad answer: ${result.message}`);
  return result;
}

describe('chat answer → messages answer', () => {
  it('text then a tool_use block per call; msg_ id; the upstream model; reasoning dropped; cached tokens apart', async () => {
    const body = chatCompletion(
      {
        content: 'Let me check.',
        reasoning_content: 'private chain of thought',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'Bash', arguments: '{"command":"git status"}' } },
          { id: 'call_2', type: 'function', function: { name: 'Noop', arguments: '' } },
        ],
      },
      'tool_calls',
      { prompt: 5000, completion: 40, cached: 4096 },
    );
    const result = translated(CHAT_TO_MESSAGES, body);
    const message = await anthropicJson(result.body);
    expect(message).toEqual({
      id: `msg_${CHAT_ID}`,
      type: 'message',
      role: 'assistant',
      model: CHAT_MODEL,
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'git status' } },
        { type: 'tool_use', id: 'call_2', name: 'Noop', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 904, cache_creation_input_tokens: 0, cache_read_input_tokens: 4096, output_tokens: 40 },
    });
    expect(result.usage).toEqual({ input_tokens: 904, output_tokens: 40, cache_read_tokens: 4096, cache_write_tokens: 0 });
  });

  it('no text: no text block; finish reasons map to stop reasons', () => {
    const cases = [
      ['stop', 'end_turn'],
      ['length', 'max_tokens'],
      ['tool_calls', 'tool_use'],
      ['function_call', 'tool_use'],
      ['content_filter', 'refusal'],
      ['something_new', 'end_turn'],
    ];
    for (const [finish, stop] of cases) {
      const json = JSON.parse(translated(CHAT_TO_MESSAGES, chatCompletion({ content: null }, finish!, null)).body.toString());
      expect(json.stop_reason, finish).toBe(stop);
      expect(json.content).toEqual([]);
    }
  });

  it('arguments that are not a JSON object make a bad answer', () => {
    const body = chatCompletion(
      { content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'Edit', arguments: '{"file_path": "/a"' } }] },
      'tool_calls',
      null,
    );
    expect(translateJsonAnswer(CHAT_TO_MESSAGES, body, CREATED)).toEqual({
      ok: false,
      message: 'the upstream called tool Edit with arguments that are not a JSON object',
    });
    expect(translateJsonAnswer(CHAT_TO_MESSAGES, Buffer.from('<html>502</html>'), CREATED)).toEqual({
      ok: false,
      message: 'the upstream answer is not JSON',
    });
    expect(translateJsonAnswer(CHAT_TO_MESSAGES, Buffer.from('{"object":"chat.completion","choices":[]}'), CREATED)).toEqual({
      ok: false,
      message: 'the upstream answer has no choice',
    });
  });
});

describe('messages answer → chat answer', () => {
  it('text blocks joined, tool_use as tool_calls, thinking dropped; chatcmpl- id; usage counts every input token', async () => {
    const body = messagesAnswer(
      [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Two ', citations: null },
        { type: 'text', text: 'calls.' },
        { type: 'tool_use', id: 'toolu_1', name: 'shell', input: { command: ['ls', '-la'] } },
      ],
      'tool_use',
      { input: 10, cacheRead: 3000, cacheWrite: 500, output: 77 },
    );
    const result = translated(MESSAGES_TO_CHAT, body);
    const completion = await chatJson(result.body);
    expect(completion).toEqual({
      id: `chatcmpl-${MESSAGE_ID}`,
      object: 'chat.completion',
      created: CREATED,
      model: MESSAGE_MODEL,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Two calls.',
            refusal: null,
            tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls","-la"]}' } }],
          },
          finish_reason: 'tool_calls',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 3510, completion_tokens: 77, total_tokens: 3587, prompt_tokens_details: { cached_tokens: 3000 } },
    });
    expect(result.usage).toEqual({ input_tokens: 3510, output_tokens: 77, cache_read_tokens: 3000, cache_write_tokens: null });
  });

  it('content null without text; stop reasons map to finish reasons', () => {
    const cases = [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['pause_turn', 'stop'],
      ['max_tokens', 'length'],
      ['tool_use', 'tool_calls'],
      ['refusal', 'content_filter'],
    ];
    for (const [stop, finish] of cases) {
      const json = JSON.parse(translated(MESSAGES_TO_CHAT, messagesAnswer([], stop!, { input: 1, output: 1 })).body.toString());
      expect(json.choices[0].finish_reason, stop).toBe(finish);
      expect(json.choices[0].message.content).toBeNull();
      expect(json.choices[0].message.tool_calls).toBeUndefined();
    }
  });

  it('a block no chat agent can take makes a bad answer', () => {
    const body = messagesAnswer([{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }], 'end_turn', {
      input: 1,
      output: 1,
    });
    expect(translateJsonAnswer(MESSAGES_TO_CHAT, body, CREATED)).toEqual({
      ok: false,
      message: 'the upstream answered with a server_tool_use block',
    });
  });
});
