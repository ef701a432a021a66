/**
 * A Messages API stream translated for an OpenAI Chat Completions agent,
 * fed at awkward byte offsets and read back by the `openai` SDK's own
 * `chat.completions.stream()` accumulator.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_ID, MESSAGE_MODEL, messagesBlocks, messagesStream, messagesStreamStart } from './fixtures/messages-upstream.js';
import { checkChatOrder } from './helpers/event-order.js';
import { CREATED, feedEverySplit, plan } from './helpers/feed.js';
import { chatStream, rejection } from './helpers/sdk-accumulators.js';

const MESSAGES_TO_CHAT = plan('chat', 'messages');
const USAGE = { input: 12, cacheRead: 2048, cacheWrite: 300, output: 57 };

describe('messages stream → chat stream', () => {
  it('thinking dropped, text and two tool calls indexed from 0, the finish, the usage chunk, [DONE]', async () => {
    const upstream = messagesStream(
      [
        { thinking: ['The user wants ', 'two files.'] },
        { text: ['I will read ', 'both files.'] },
        { tool: { id: 'toolu_01A', name: 'Read', json: ['{"file_path":', ' "/src/a.ts"}'] } },
        { tool: { id: 'toolu_01B', name: 'Read', json: ['{"file_path": "/src/b.ts"}'] } },
      ],
      'tool_use',
      USAGE,
    );
    const fed = feedEverySplit(MESSAGES_TO_CHAT, upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    const events = checkChatOrder(fed.bytes);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const completion = await chatStream(fed.chunks);
    expect(completion).toMatchObject({ id: `chatcmpl-${MESSAGE_ID}`, model: MESSAGE_MODEL, created: CREATED });
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('I will read both files.');
    expect(
      choice.message.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, JSON.parse(c.function.arguments)] : null)),
    ).toEqual([
      ['toolu_01A', 'Read', { file_path: '/src/a.ts' }],
      ['toolu_01B', 'Read', { file_path: '/src/b.ts' }],
    ]);
    // prompt_tokens counts the cached tokens read and written; cached_tokens the ones read
    expect(completion.usage).toMatchObject({
      prompt_tokens: 2360,
      completion_tokens: 57,
      total_tokens: 2417,
      prompt_tokens_details: { cached_tokens: 2048 },
    });
    expect(fed.translator.usage).toEqual({ input_tokens: 2360, output_tokens: 57, cache_read_tokens: 2048, cache_write_tokens: null });
  });

  it('sends the usage chunk only when the agent asked for it', async () => {
    const upstream = messagesStream([{ text: ['hi'] }], 'end_turn', USAGE);
    const fed = feedEverySplit(plan('chat', 'messages', { includeUsage: false }), upstream);
    const events = checkChatOrder(fed.bytes);
    expect(events.some((e) => e.data !== '[DONE]' && e.data.usage !== undefined)).toBe(false);
    const completion = await chatStream(fed.chunks, false);
    expect(completion.choices[0]!.message.content).toBe('hi');
    expect(fed.translator.usage?.input_tokens).toBe(2360);
  });

  it('stop reasons map to finish reasons', async () => {
    const cases = [
      ['end_turn', 'stop'],
      ['stop_sequence', 'stop'],
      ['pause_turn', 'stop'],
      ['max_tokens', 'length'],
      ['tool_use', 'tool_calls'],
      ['refusal', 'content_filter'],
    ] as const;
    for (const [stop, finish] of cases) {
      const fed = feedEverySplit(MESSAGES_TO_CHAT, messagesStream([{ text: ['x'] }], stop, USAGE));
      const events = checkChatOrder(fed.bytes);
      const finishChunk = events.find(
        (e) => e.data !== '[DONE]' && (e.data.choices as Array<{ finish_reason: string | null }>)[0]?.finish_reason,
      );
      expect((finishChunk!.data as { choices: Array<{ finish_reason: string }> }).choices[0]!.finish_reason, stop).toBe(finish);
    }
  });

  it('a stream that ends before message_stop is a cut: an error chunk, no [DONE]', async () => {
    const upstream = Buffer.from(
      messagesStreamStart(USAGE) + messagesBlocks([{ tool: { id: 'toolu_cut', name: 'Bash', json: ['{"command":"ls"}'] } }]),
    );
    const fed = feedEverySplit(MESSAGES_TO_CHAT, upstream);
    expect(fed.outcome).toEqual({ end: 'cut' });
    const events = checkChatOrder(fed.bytes);
    expect(events.at(-1)!.data).toEqual({
      error: { message: 'the upstream stream was cut', type: 'upstream_error', code: 'stream_error' },
    });
    expect((await rejection(chatStream(fed.chunks))).message).toContain('the upstream stream was cut');
  });

  it("an error event mid-stream ends the agent's stream with the upstream's message", async () => {
    const upstream = Buffer.from(
      messagesStreamStart(USAGE) +
        messagesBlocks([{ text: ['partial'] }]) +
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    );
    const fed = feedEverySplit(MESSAGES_TO_CHAT, upstream);
    expect(fed.outcome).toEqual({ end: 'upstream_error', message: 'Overloaded' });
    expect((await rejection(chatStream(fed.chunks))).message).toContain('Overloaded');
  });
});
