/**
 * Answers from Messages and Chat Completions seats translated for a
 * Responses agent (Codex), streamed (read back by the `openai` SDK's
 * `responses.stream()` accumulator, with sequence numbers checked) and
 * whole: text, function calls, freeform calls as `custom_tool_call`, shell
 * calls as `local_shell_call`, length as incomplete, failures as
 * `response.failed`.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { type AnswerPlan, translateJsonAnswer } from '../../src/translate/index.js';
import type { DeclaredTool } from '../../src/translate/wire.js';
import { CHAT_ID, chatCompletion, chatStream } from './fixtures/chat-upstream.js';
import { CODEX_PATCH } from './fixtures/codex.js';
import {
  MESSAGE_ID,
  MESSAGE_MODEL,
  messagesAnswer,
  messagesBlocks,
  messagesStream,
  messagesStreamStart,
} from './fixtures/messages-upstream.js';
import { checkResponsesOrder } from './helpers/event-order.js';
import { CREATED, feedEverySplit, plan } from './helpers/feed.js';
import { responsesJson, responsesStream } from './helpers/sdk-accumulators.js';

const CODEX_TOOLS = new Map<string, DeclaredTool>([
  ['shell', { kind: 'function', name: 'shell', namespace: null }],
  ['apply_patch', { kind: 'custom', name: 'apply_patch', namespace: null }],
  ['local_shell', { kind: 'local_shell' }],
  ['tool_search', { kind: 'tool_search' }],
  ['docs__search', { kind: 'function', name: 'search', namespace: 'docs' }],
]);
const FROM_MESSAGES = plan('responses', 'messages', { declaredTools: CODEX_TOOLS });
const FROM_CHAT = plan('responses', 'chat', { declaredTools: CODEX_TOOLS });
const USAGE = { input: 40, cacheRead: 1000, cacheWrite: 200, output: 25 };

const eventTypes = (bytes: Buffer) => checkResponsesOrder(bytes).map((e) => e.name);

describe('messages stream → responses stream', () => {
  it('text then a function call: every event the Responses API sends, numbered from 0', async () => {
    const upstream = messagesStream(
      [
        { thinking: ['hm'] },
        { text: ['Listing ', 'files.'] },
        { tool: { id: 'toolu_1', name: 'shell', json: ['{"command":', '["ls"]}'] } },
      ],
      'tool_use',
      USAGE,
    );
    const fed = feedEverySplit(FROM_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    expect(eventTypes(fed.bytes)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const response = await responsesStream(fed.chunks);
    expect(response).toMatchObject({ id: `resp_${MESSAGE_ID}`, model: MESSAGE_MODEL, status: 'completed', created_at: CREATED });
    expect(response.output_text).toBe('Listing files.');
    expect(response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(response.output[1]).toMatchObject({
      type: 'function_call',
      call_id: 'toolu_1',
      name: 'shell',
      arguments: '{"command":["ls"]}',
      status: 'completed',
    });
    // from a Messages seat: input counts the cached tokens read and written; cached_tokens those read
    expect(response.usage).toMatchObject({
      input_tokens: 1240,
      input_tokens_details: { cached_tokens: 1000 },
      output_tokens: 25,
      total_tokens: 1265,
    });
    expect(fed.translator.usage).toEqual({ input_tokens: 1240, output_tokens: 25, cache_read_tokens: 1000, cache_write_tokens: null });
  });

  it('a call of a tool the agent declared freeform goes back as a custom_tool_call, with its input events', async () => {
    const args = JSON.stringify({ input: CODEX_PATCH });
    const upstream = messagesStream(
      [{ tool: { id: 'toolu_p', name: 'apply_patch', json: [args.slice(0, 20), args.slice(20)] } }],
      'tool_use',
      USAGE,
    );
    const fed = feedEverySplit(FROM_MESSAGES, upstream);
    const events = checkResponsesOrder(fed.bytes);
    expect(events.map((e) => e.name).slice(2, -1)).toEqual([
      'response.output_item.added',
      'response.custom_tool_call_input.delta',
      'response.custom_tool_call_input.done',
      'response.output_item.done',
    ]);
    const response = await responsesStream(fed.chunks);
    expect(response.output).toEqual([
      { type: 'custom_tool_call', id: `ctc_${MESSAGE_ID}_0`, call_id: 'toolu_p', name: 'apply_patch', input: CODEX_PATCH },
    ]);
  });

  it('local_shell and a client tool search go back as their own items; a namespaced function with its namespace', async () => {
    const upstream = messagesStream(
      [
        { tool: { id: 'toolu_s', name: 'local_shell', json: ['{"command":["pnpm","test"],"timeout_ms":60000}'] } },
        { tool: { id: 'toolu_t', name: 'tool_search', json: ['{"query":"jira"}'] } },
        { tool: { id: 'toolu_d', name: 'docs__search', json: ['{"q":"x"}'] } },
      ],
      'tool_use',
      USAGE,
    );
    const fed = feedEverySplit(FROM_MESSAGES, upstream);
    checkResponsesOrder(fed.bytes);
    const response = await responsesStream(fed.chunks);
    expect(response.output).toMatchObject([
      {
        type: 'local_shell_call',
        id: `lsh_${MESSAGE_ID}_0`,
        call_id: 'toolu_s',
        action: { type: 'exec', command: ['pnpm', 'test'], env: {}, timeout_ms: 60000 },
        status: 'completed',
      },
      {
        type: 'tool_search_call',
        id: `tsc_${MESSAGE_ID}_1`,
        call_id: 'toolu_t',
        arguments: { query: 'jira' },
        execution: 'client',
        status: 'completed',
      },
      {
        type: 'function_call',
        id: `fc_${MESSAGE_ID}_2`,
        call_id: 'toolu_d',
        name: 'search',
        namespace: 'docs',
        arguments: '{"q":"x"}',
        status: 'completed',
      },
    ]);
  });

  it('an answer cut by max_tokens ends with response.incomplete', async () => {
    const fed = feedEverySplit(FROM_MESSAGES, messagesStream([{ text: ['Par'] }], 'max_tokens', USAGE));
    expect(eventTypes(fed.bytes).at(-1)).toBe('response.incomplete');
    const response = await responsesStream(fed.chunks);
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('a failure mid-stream ends with response.failed: an upstream error, a cut, a freeform call without its input', async () => {
    const error = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const failed = feedEverySplit(FROM_MESSAGES, Buffer.from(messagesStreamStart(USAGE) + messagesBlocks([{ text: ['par'] }]) + error));
    expect(failed.outcome).toEqual({ end: 'upstream_error', message: 'Overloaded' });
    const last = checkResponsesOrder(failed.bytes).at(-1)!;
    expect(last).toMatchObject({
      name: 'response.failed',
      data: { response: { status: 'failed', error: { code: 'server_error', message: 'Overloaded' } } },
    });
    expect((await responsesStream(failed.chunks)).status).toBe('failed');

    const cut = feedEverySplit(FROM_MESSAGES, Buffer.from(messagesStreamStart(USAGE) + messagesBlocks([{ text: ['par'] }])));
    expect(cut.outcome).toEqual({ end: 'cut' });
    expect(checkResponsesOrder(cut.bytes).at(-1)).toMatchObject({
      name: 'response.failed',
      data: { response: { error: { message: 'the upstream stream was cut' } } },
    });

    const bad = feedEverySplit(
      FROM_MESSAGES,
      messagesStream([{ tool: { id: 'toolu_p', name: 'apply_patch', json: ['{"patch":"x"}'] } }], 'tool_use', USAGE),
    );
    expect(bad.outcome).toEqual({ end: 'bad_answer', message: 'the upstream called freeform tool apply_patch without a string "input"' });
    checkResponsesOrder(bad.bytes);
  });
});

describe('chat stream → responses stream', () => {
  it('a DeepSeek-style nameless first delta and an interleaved second call both arrive, as declared', async () => {
    const upstream = chatStream([
      { content: 'On it.' },
      { tools: [{ index: 0, id: 'call_1', name: '', arguments: '{"command"' }] },
      { tools: [{ index: 1, id: 'call_2', name: 'apply_patch', arguments: '{"input":' }] },
      { tools: [{ index: 0, name: 'shell', arguments: ':["ls"]}' }] },
      { tools: [{ index: 1, arguments: JSON.stringify(CODEX_PATCH) + '}' }] },
      { finish: 'tool_calls' },
      { usage: { prompt: 900, completion: 50, cached: 512 } },
      'done',
    ]);
    const fed = feedEverySplit(FROM_CHAT, upstream);
    checkResponsesOrder(fed.bytes);
    const response = await responsesStream(fed.chunks);
    expect(response).toMatchObject({ id: `resp_${CHAT_ID}`, status: 'completed', output_text: 'On it.' });
    expect(response.output.slice(1)).toMatchObject([
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: CODEX_PATCH },
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 900, input_tokens_details: { cached_tokens: 512 }, output_tokens: 50 });
  });

  it('is read by the SDK event by event with increasing sequence numbers', async () => {
    const fed = feedEverySplit(FROM_CHAT, chatStream([{ content: 'a' }, { content: 'b' }, { finish: 'stop' }, 'done']));
    const seen: ResponseStreamEvent[] = [];
    const { default: OpenAI } = await import('openai');
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const chunk of fed.chunks) c.enqueue(new Uint8Array(chunk));
        c.close();
      },
    });
    const client = new OpenAI({
      apiKey: 'test',
      baseURL: 'http://translated.invalid',
      maxRetries: 0,
      fetch: async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    });
    for await (const event of client.responses.stream({ model: 'gpt', input: 'hi' })) seen.push(event);
    expect(seen.map((e) => e.sequence_number)).toEqual(seen.map((_, i) => i));
    expect(seen.filter((e) => e.type === 'response.output_text.delta').map((e) => (e as { delta: string }).delta)).toEqual(['a', 'b']);
  });
});

describe('whole answers → responses', () => {
  const json = (p: AnswerPlan, body: Buffer) => {
    const result = translateJsonAnswer(p, body, CREATED);
    if (!result.ok) throw new Error(result.message);
    return result;
  };
  const whole = (p: AnswerPlan) => ({ ...p, agentStream: false, upstreamStream: false });

  it('a message with text and a freeform call, read by the SDK', async () => {
    const body = messagesAnswer(
      [
        { type: 'text', text: 'Patching.' },
        { type: 'tool_use', id: 'toolu_p', name: 'apply_patch', input: { input: CODEX_PATCH } },
      ],
      'tool_use',
      USAGE,
    );
    const response = await responsesJson(json(whole(FROM_MESSAGES), body).body);
    expect(response).toMatchObject({
      id: `resp_${MESSAGE_ID}`,
      object: 'response',
      status: 'completed',
      model: MESSAGE_MODEL,
      created_at: CREATED,
    });
    expect(response.output).toEqual([
      {
        type: 'message',
        id: `msg_${MESSAGE_ID}_0`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Patching.', annotations: [] }],
      },
      { type: 'custom_tool_call', id: `ctc_${MESSAGE_ID}_1`, call_id: 'toolu_p', name: 'apply_patch', input: CODEX_PATCH },
    ]);
    expect(response.usage).toMatchObject({ input_tokens: 1240, input_tokens_details: { cached_tokens: 1000 }, output_tokens: 25 });
  });

  it('a chat completion with no text: no message item; length is incomplete', async () => {
    const body = chatCompletion(
      { content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } }] },
      'length',
      null,
    );
    const response = await responsesJson(json(whole(FROM_CHAT), body).body);
    expect(response.output.map((i) => i.type)).toEqual(['function_call']);
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  });

  it('a local_shell call without a command list is a bad answer', () => {
    const body = messagesAnswer(
      [{ type: 'tool_use', id: 'toolu_s', name: 'local_shell', input: { command: 'ls -la' } }],
      'tool_use',
      USAGE,
    );
    expect(translateJsonAnswer(whole(FROM_MESSAGES), body, CREATED)).toEqual({
      ok: false,
      message: 'the upstream called local_shell without a "command" list of strings',
    });
  });

  it('an agent whose tools were not declared gets plain function calls', async () => {
    const body = messagesAnswer([{ type: 'tool_use', id: 'toolu_x', name: 'anything', input: {} }], 'tool_use', USAGE);
    const response = await responsesJson(json(plan('responses', 'messages', { agentStream: false, upstreamStream: false }), body).body);
    expect(response.output).toMatchObject([{ type: 'function_call', name: 'anything', arguments: '{}' }]);
  });
});
