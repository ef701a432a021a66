/**
 * Answers from a `wire: responses` seat (and ChatGPT's Codex backend, which
 * always streams) translated for Anthropic and Chat Completions agents,
 * streamed and whole, read back by the SDKs' own accumulators.
 */
import { describe, expect, it } from 'vitest';
import { translateJsonAnswer } from '../../src/translate/index.js';
import { RESPONSE_ID, RESPONSE_MODEL, responsesAnswer, responsesStream } from './fixtures/responses-upstream.js';
import { checkChatOrder, checkMessagesOrder } from './helpers/event-order.js';
import { CREATED, feedEverySplit, plan } from './helpers/feed.js';
import { anthropicJson, anthropicStream, chatJson, chatStream, rejection } from './helpers/sdk-accumulators.js';

const TO_MESSAGES = plan('messages', 'responses');
const TO_CHAT = plan('chat', 'responses');
const USAGE = { input: 5000, cached: 4096, output: 120 };

describe('responses stream → messages stream', () => {
  it('reasoning dropped, text and function calls as blocks, cached tokens subtracted from input', async () => {
    const upstream = responsesStream(
      [
        { reasoning: 'Look at the files' },
        { text: ['Running ', 'the tests.'] },
        { call: { callId: 'call_1', name: 'Bash', args: ['{"command":', '"pnpm test"}'] } },
        { call: { callId: 'call_2', name: 'Read', args: ['{"file_path":"/a"}'], noDeltas: true } },
      ],
      { status: 'completed', usage: USAGE },
    );
    const fed = feedEverySplit(TO_MESSAGES, upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    checkMessagesOrder(fed.bytes);
    const message = await anthropicStream(fed.chunks);
    expect(message).toMatchObject({ id: `msg_${RESPONSE_ID}`, model: RESPONSE_MODEL, stop_reason: 'tool_use' });
    expect(message.content).toMatchObject([
      { type: 'text', text: 'Running the tests.' },
      { type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'pnpm test' } },
      { type: 'tool_use', id: 'call_2', name: 'Read', input: { file_path: '/a' } },
    ]);
    expect(message.usage).toMatchObject({
      input_tokens: 904,
      cache_read_input_tokens: 4096,
      cache_creation_input_tokens: 0,
      output_tokens: 120,
    });
  });

  it('incomplete for length is max_tokens; the Codex backend’s empty completed output changes nothing', async () => {
    const fed = feedEverySplit(
      TO_MESSAGES,
      responsesStream([{ text: ['cut sh'] }], { status: 'incomplete', reason: 'max_output_tokens', usage: USAGE }),
    );
    expect((await anthropicStream(fed.chunks)).stop_reason).toBe('max_tokens');
    const empty = feedEverySplit(
      TO_MESSAGES,
      responsesStream([{ text: ['all here'] }], { status: 'completed', usage: USAGE, emptyOutput: true }),
    );
    expect((await anthropicStream(empty.chunks)).content).toEqual([{ type: 'text', text: 'all here' }]);
  });

  it('response.failed ends the stream with an error event; an end before the response completes is a cut', async () => {
    const failedEvent = `event: response.failed\ndata: ${JSON.stringify({
      type: 'response.failed',
      sequence_number: 9,
      response: { id: RESPONSE_ID, status: 'failed', error: { code: 'server_error', message: 'The model crashed' }, output: [] },
    })}\n\n`;
    const failed = feedEverySplit(TO_MESSAGES, responsesStream([{ text: ['par'] }, { raw: failedEvent }], null));
    expect(failed.outcome).toEqual({ end: 'upstream_error', message: 'The model crashed' });
    expect((await rejection(anthropicStream(failed.chunks))).message).toContain('The model crashed');
    const cut = feedEverySplit(
      TO_MESSAGES,
      responsesStream([{ call: { callId: 'call_1', name: 'Bash', args: ['{"command":"ls"}'] } }], null),
    );
    expect(cut.outcome).toEqual({ end: 'cut' });
    checkMessagesOrder(cut.bytes);
  });
});

describe('responses stream → chat stream', () => {
  it('text deltas and argument deltas as chat chunks, usage from response.completed', async () => {
    const upstream = responsesStream(
      [{ text: ['Hel', 'lo'] }, { call: { callId: 'call_9', name: 'weather', args: ['{"city"', ':"Oslo"}'] } }],
      { status: 'completed', usage: USAGE },
    );
    const fed = feedEverySplit(TO_CHAT, upstream);
    checkChatOrder(fed.bytes);
    const completion = await chatStream(fed.chunks);
    expect(completion.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        content: 'Hello',
        tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
      },
    });
    expect(completion.usage).toMatchObject({ prompt_tokens: 5000, completion_tokens: 120, prompt_tokens_details: { cached_tokens: 4096 } });
  });
});

describe('the Codex backend answering an agent that did not stream', () => {
  const upstream = responsesStream(
    [{ reasoning: 'r' }, { text: ['Done.'] }, { call: { callId: 'call_x', name: 'Bash', args: ['{"command":"ls"}'] } }],
    { status: 'completed', usage: USAGE, emptyOutput: true },
  );

  it('a chat agent gets the whole chat.completion, assembled from the stream, at the end only', async () => {
    const fed = feedEverySplit(plan('chat', 'responses', { agentStream: false }), upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    expect(fed.chunks).toHaveLength(1);
    const completion = await chatJson(fed.bytes);
    expect(completion).toMatchObject({
      id: `chatcmpl-${RESPONSE_ID}`,
      object: 'chat.completion',
      created: CREATED,
      choices: [
        {
          finish_reason: 'tool_calls',
          message: { content: 'Done.', tool_calls: [{ id: 'call_x', function: { name: 'Bash', arguments: '{"command":"ls"}' } }] },
        },
      ],
      usage: { prompt_tokens: 5000, completion_tokens: 120 },
    });
    expect(fed.translator.usage).toEqual({ input_tokens: 5000, output_tokens: 120, cache_read_tokens: 4096, cache_write_tokens: null });
  });

  it('an Anthropic agent gets the whole message', async () => {
    const fed = feedEverySplit(plan('messages', 'responses', { agentStream: false }), upstream);
    const message = await anthropicJson(fed.bytes);
    expect(message).toMatchObject({
      id: `msg_${RESPONSE_ID}`,
      stop_reason: 'tool_use',
      content: [
        { type: 'text', text: 'Done.' },
        { type: 'tool_use', id: 'call_x', name: 'Bash', input: { command: 'ls' } },
      ],
      usage: { input_tokens: 904, cache_read_input_tokens: 4096, output_tokens: 120 },
    });
  });

  it('nothing reaches the agent when the stream fails or is cut: the attempt may fail over', () => {
    const cut = feedEverySplit(plan('chat', 'responses', { agentStream: false }), responsesStream([{ text: ['Don'] }], null));
    expect(cut.outcome).toEqual({ end: 'cut' });
    expect(cut.bytes.length).toBe(0);
    expect(cut.translator.fail('timed out')).toHaveLength(0);
  });
});

describe('whole responses → messages and chat', () => {
  const answer = responsesAnswer(
    [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Two', annotations: [] }],
      },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'Bash', arguments: '{"command":"ls"}', status: 'completed' },
    ],
    USAGE,
  );
  const whole = { agentStream: false, upstreamStream: false };

  it('for an Anthropic agent', async () => {
    const result = translateJsonAnswer(plan('messages', 'responses', whole), answer, CREATED);
    if (!result.ok) throw new Error(result.message);
    expect(await anthropicJson(result.body)).toMatchObject({
      content: [
        { type: 'text', text: 'Two' },
        { type: 'tool_use', id: 'call_1', name: 'Bash', input: { command: 'ls' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 904, cache_read_input_tokens: 4096 },
    });
  });

  it('for a chat agent; a failed response is a bad answer', async () => {
    const result = translateJsonAnswer(plan('chat', 'responses', whole), answer, CREATED);
    if (!result.ok) throw new Error(result.message);
    expect((await chatJson(result.body)).choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: 'Two' } });
    const failed = responsesAnswer([], USAGE, 'failed');
    expect(translateJsonAnswer(plan('chat', 'responses', whole), failed, CREATED)).toEqual({
      ok: false,
      message: 'the upstream response failed: no reason given',
    });
  });
});
