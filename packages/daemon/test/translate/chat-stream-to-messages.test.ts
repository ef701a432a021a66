/**
 * A Chat Completions stream translated for an Anthropic agent, fed chunk by
 * chunk at awkward byte offsets, every result read back by the Anthropic
 * SDK's own accumulator and checked for strict event order: the cases
 * where peer translators lost or broke tool calls.
 */
import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { createStreamTranslator } from '../../src/translate/index.js';
import { CHAT_ID, CHAT_MODEL, chatStream } from './fixtures/chat-upstream.js';
import { checkMessagesOrder } from './helpers/event-order.js';
import { CREATED, feed, feedEverySplit, plan } from './helpers/feed.js';
import { anthropicStream, rejection } from './helpers/sdk-accumulators.js';

const CHAT_TO_MESSAGES = plan('messages', 'chat');

function toolUses(content: readonly { type: string }[]): Array<Pick<ToolUseBlock, 'id' | 'name' | 'input'>> {
  return content.filter((b): b is ToolUseBlock => b.type === 'tool_use').map(({ id, name, input }) => ({ id, name, input }));
}

describe('chat stream → messages stream', () => {
  it('text, the finish, then the usage chunk: message_delta waits for the usage, cached tokens apart', async () => {
    const upstream = chatStream([
      { content: 'Héllo, ' },
      { reasoning: 'the user greets me' },
      { content: 'wörld 👋' },
      { finish: 'stop' },
      { usage: { prompt: 1200, completion: 9, cached: 1024 } },
      'done',
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    const events = checkMessagesOrder(fed.bytes);
    expect(events.map((e) => e.name)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const message = await anthropicStream(fed.chunks);
    expect(message).toMatchObject({ id: `msg_${CHAT_ID}`, model: CHAT_MODEL, role: 'assistant', stop_reason: 'end_turn' });
    expect(message.content).toEqual([{ type: 'text', text: 'Héllo, wörld 👋' }]);
    expect(message.usage).toMatchObject({
      input_tokens: 176,
      cache_read_input_tokens: 1024,
      cache_creation_input_tokens: 0,
      output_tokens: 9,
    });
    expect(fed.translator.usage).toEqual({ input_tokens: 176, output_tokens: 9, cache_read_tokens: 1024, cache_write_tokens: 0 });
  });

  it('holds message_delta after the finish chunk until the usage chunk arrives', () => {
    const head = chatStream([{ content: 'ok' }, { finish: 'stop' }]);
    const usage = chatStream([{ usage: { prompt: 10, completion: 2 } }], { roleChunk: false });
    const live = createStreamTranslator(CHAT_TO_MESSAGES, CREATED);
    const before = live.push(head).toString();
    expect(before).toContain('content_block_delta');
    expect(before).not.toContain('message_delta');
    const after = live.push(usage).toString();
    expect(after).toContain('event: message_delta');
    expect(after).toContain('"output_tokens":2');
    expect(after).toContain('event: message_stop');
    expect(live.outcome).toEqual({ end: 'complete' });
  });

  it('a first tool-call delta with an empty name is held, never dropped, and its arguments follow the start', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, id: 'call_ds01', name: '', arguments: '{"comm' }] },
      { tools: [{ index: 0, name: 'Bash' }] },
      { tools: [{ index: 0, arguments: 'and": "ls -la"}' }] },
      { finish: 'tool_calls' },
      { usage: { prompt: 50, completion: 12 } },
      'done',
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    const events = checkMessagesOrder(fed.bytes);
    expect(events.filter((e) => e.name === 'content_block_start')).toHaveLength(1);
    const message = await anthropicStream(fed.chunks);
    expect(message.stop_reason).toBe('tool_use');
    expect(toolUses(message.content)).toEqual([{ id: 'call_ds01', name: 'Bash', input: { command: 'ls -la' } }]);
  });

  it('a first delta with a name but no id waits for the id', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, name: 'Read', arguments: '{"file_path":' }] },
      { tools: [{ index: 0, id: 'call_late', arguments: '"/etc/hosts"}' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const message = await anthropicStream(feedEverySplit(CHAT_TO_MESSAGES, upstream).chunks);
    expect(toolUses(message.content)).toEqual([{ id: 'call_late', name: 'Read', input: { file_path: '/etc/hosts' } }]);
  });

  it('a later call does not go ahead of a first call still waiting for its name: the blocks keep index order', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, id: 'call_0', name: '', arguments: '{"a":' }] },
      { tools: [{ index: 1, id: 'call_1', name: 'Glob', arguments: '{"pattern":"*"}' }] },
      { tools: [{ index: 0, name: 'Read', arguments: '1}' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const message = await anthropicStream(feedEverySplit(CHAT_TO_MESSAGES, upstream).chunks);
    expect(toolUses(message.content)).toEqual([
      { id: 'call_0', name: 'Read', input: { a: 1 } },
      { id: 'call_1', name: 'Glob', input: { pattern: '*' } },
    ]);
  });

  it('two tool calls interleaved by index: the first streams, the second is held and sent whole after it', async () => {
    const upstream = chatStream([
      { content: 'Reading both.' },
      { tools: [{ index: 0, id: 'call_a', name: 'Read', arguments: '' }] },
      { tools: [{ index: 1, id: 'call_b', name: 'Grep', arguments: '{"pattern":' }] },
      { tools: [{ index: 0, arguments: '{"file_path":"/src/a.ts"' }] },
      { tools: [{ index: 1, arguments: '"TODO"}' }] },
      { tools: [{ index: 0, arguments: '}' }] },
      { finish: 'tool_calls' },
      { usage: { prompt: 80, completion: 30 } },
      'done',
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    const events = checkMessagesOrder(fed.bytes);
    expect(events.filter((e) => e.name === 'content_block_start').map((e) => (e.data as { index: number }).index)).toEqual([0, 1, 2]);
    const message = await anthropicStream(fed.chunks);
    expect(message.content[0]).toEqual({ type: 'text', text: 'Reading both.' });
    expect(toolUses(message.content)).toEqual([
      { id: 'call_a', name: 'Read', input: { file_path: '/src/a.ts' } },
      { id: 'call_b', name: 'Grep', input: { pattern: 'TODO' } },
    ]);
  });

  it('three calls one after another (parallel tool use): all arrive, in index order', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, id: 'call_1', name: 'Read', arguments: '{"file_path":"a"}' }] },
      { tools: [{ index: 1, id: 'call_2', name: 'Read', arguments: '{"file_path":' }] },
      { tools: [{ index: 1, arguments: '"b"}' }] },
      { tools: [{ index: 2, id: 'call_3', name: 'Glob', arguments: '{"pattern":"**/*.ts"}' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const message = await anthropicStream(feedEverySplit(CHAT_TO_MESSAGES, upstream).chunks);
    expect(toolUses(message.content).map((t) => [t.id, t.input])).toEqual([
      ['call_1', { file_path: 'a' }],
      ['call_2', { file_path: 'b' }],
      ['call_3', { pattern: '**/*.ts' }],
    ]);
  });

  it('text that comes while a tool call streams is sent after the calls, not into a stopped block', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, id: 'call_x', name: 'Bash', arguments: '{"command":' }] },
      { content: 'Running it.' },
      { tools: [{ index: 0, arguments: '"make test"}' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    checkMessagesOrder(fed.bytes);
    const message = await anthropicStream(fed.chunks);
    expect(message.content.map((b) => b.type)).toEqual(['tool_use', 'text']);
    expect(toolUses(message.content)[0]!.input).toEqual({ command: 'make test' });
  });

  it('a call that never gets an id is sent whole at the end with an id made from the answer', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, name: 'TodoWrite', arguments: '{"todos":[]}' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const message = await anthropicStream(feedEverySplit(CHAT_TO_MESSAGES, upstream).chunks);
    expect(toolUses(message.content)).toEqual([{ id: `toolu_${CHAT_ID}_0`, name: 'TodoWrite', input: { todos: [] } }]);
  });

  it('[DONE] without a finish_reason is complete: tool_use after tool calls, else end_turn', async () => {
    const withTools = chatStream([{ tools: [{ index: 0, id: 'call_c', name: 'Bash', arguments: '{"command":"pwd"}' }] }, 'done']);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, withTools);
    expect(fed.outcome).toEqual({ end: 'complete' });
    expect((await anthropicStream(fed.chunks)).stop_reason).toBe('tool_use');

    const textOnly = feedEverySplit(CHAT_TO_MESSAGES, chatStream([{ content: 'done' }, 'done']));
    const message = await anthropicStream(textOnly.chunks);
    expect(message).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'done' }] });
    expect(textOnly.translator.usage).toBeNull();
  });

  it('a finish_reason and a clean end with neither usage nor [DONE] is complete', async () => {
    const fed = feedEverySplit(CHAT_TO_MESSAGES, chatStream([{ content: 'bye' }, { finish: 'length' }]));
    expect(fed.outcome).toEqual({ end: 'complete' });
    expect((await anthropicStream(fed.chunks)).stop_reason).toBe('max_tokens');
  });

  it('a stream cut after a tool call (no finish_reason, no [DONE]) is a cut: an error event, no message_stop', async () => {
    const upstream = chatStream([
      { content: 'Let me look.' },
      { tools: [{ index: 0, id: 'call_cut', name: 'Read', arguments: '{"file_path":"/x"}' }] },
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'cut' });
    const events = checkMessagesOrder(fed.bytes);
    expect(events.at(-1)).toEqual({
      name: 'error',
      data: { type: 'error', error: { type: 'api_error', message: 'the upstream stream was cut' } },
    });
    expect(events.some((e) => e.name === 'message_stop')).toBe(false);
    const err = await rejection(anthropicStream(fed.chunks));
    expect(err.message).toContain('the upstream stream was cut');
  });

  it('finish reasons map to stop reasons', async () => {
    const cases = [
      ['stop', 'end_turn'],
      ['length', 'max_tokens'],
      ['tool_calls', 'tool_use'],
      ['content_filter', 'refusal'],
    ] as const;
    for (const [finish, stop] of cases) {
      const fed = feed(CHAT_TO_MESSAGES, [chatStream([{ content: 'x' }, { finish }, 'done'])]);
      expect((await anthropicStream(fed.chunks)).stop_reason, finish).toBe(stop);
    }
  });

  it('arguments that are not a JSON object end the stream with an error (bad answer)', async () => {
    const upstream = chatStream([
      { tools: [{ index: 0, id: 'call_bad', name: 'Bash', arguments: '["ls"]' }] },
      { finish: 'tool_calls' },
      'done',
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'bad_answer', message: 'the upstream called tool Bash with arguments that are not a JSON object' });
    checkMessagesOrder(fed.bytes);
    expect((await rejection(anthropicStream(fed.chunks))).message).toContain('not a JSON object');
  });

  it('an error the upstream sends mid-stream ends the agent stream with an error event', async () => {
    const upstream = chatStream([
      { content: 'partial' },
      { raw: 'data: {"error":{"message":"upstream overloaded","type":"server_error"}}\n\n' },
    ]);
    const fed = feedEverySplit(CHAT_TO_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'upstream_error', message: 'upstream overloaded' });
    expect((await rejection(anthropicStream(fed.chunks))).message).toContain('upstream overloaded');
  });

  it('reads CRLF line ends, comments, events split over several data lines, and ignores chunks after [DONE]', async () => {
    const lines = [
      ': OPENROUTER PROCESSING',
      '',
      'data: {"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"m",',
      'data: "choices":[{"index":0,"delta":{"role":"assistant","content":"a\\u00e9"},"finish_reason":null}]}',
      '',
      'data: {"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"ü"},"finish_reason":"stop"}]}',
      '',
      'data: [DONE]',
      '',
      'data: {"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"late"},"finish_reason":null}]}',
      '',
      '',
    ];
    const fed = feedEverySplit(CHAT_TO_MESSAGES, Buffer.from(lines.join('\r\n')));
    const message = await anthropicStream(fed.chunks);
    expect(message).toMatchObject({ id: 'msg_gen-1', content: [{ type: 'text', text: 'aéü' }], stop_reason: 'end_turn' });
  });
});
