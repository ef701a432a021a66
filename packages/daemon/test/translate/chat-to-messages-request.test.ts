/**
 * An OpenAI Chat Completions agent's request for an Anthropic seat: one case
 * per row of the mapping table, then the parts that cannot be carried.
 */
import { describe, expect, it } from 'vitest';
import { type TranslationTarget, translateRequest } from '../../src/translate/index.js';

const TARGET: TranslationTarget = {
  model: 'claude-sonnet-4-5',
  maxOutputTokens: null,
  maxTokensField: 'max_completion_tokens',
  codexBackend: false,
};

function toMessages(body: object, target: Partial<TranslationTarget> = {}) {
  const result = translateRequest('chat', 'messages', Buffer.from(JSON.stringify({ model: 'gpt', ...body })), { ...TARGET, ...target });
  if (!result.ok) throw new Error(`expected a translation, got ${result.reason}: ${result.detail}`);
  return { ...result, json: JSON.parse(result.body.toString()) as Record<string, unknown> & { messages: unknown[] } };
}

function refused(body: object) {
  const result = translateRequest('chat', 'messages', Buffer.from(JSON.stringify({ model: 'gpt', ...body })), TARGET);
  if (result.ok) throw new Error(`expected a refusal, got ${result.body.toString()}`);
  return result;
}

describe('chat → messages request', () => {
  it('system and developer messages, wherever they stand, join into the top-level system in order', () => {
    const { json } = toMessages({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'again' },
      ],
    });
    expect(json.system).toBe('You are terse.\n\nAnswer in French.');
    expect(json.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'again' },
        ],
      },
    ]);
  });

  it('user content strings and text parts become text blocks; images by data URL or http(s) URL', () => {
    const { json } = toMessages({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'data:image/webp;base64,UklGRg==', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
          ],
        },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/b.png' } },
        ],
      },
    ]);
  });

  it('assistant content then tool calls: a text block when non-empty, then tool_use blocks with parsed input', () => {
    const { json } = toMessages({
      messages: [
        { role: 'user', content: 'list' },
        {
          role: 'assistant',
          content: 'Listing.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } },
            { id: 'call_2', type: 'function', function: { name: 'noop', arguments: '' } },
          ],
        },
      ],
    });
    expect(json.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Listing.' },
        { type: 'tool_use', id: 'call_1', name: 'shell', input: { command: ['ls'] } },
        { type: 'tool_use', id: 'call_2', name: 'noop', input: {} },
      ],
    });
  });

  it('tool messages become tool_result blocks in a user turn; consecutive ones share that turn with what follows', () => {
    const { json } = toMessages({
      messages: [
        { role: 'user', content: 'run' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'a', arguments: '{}' } },
            { id: 'call_2', type: 'function', function: { name: 'b', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'one' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'two' }] },
        { role: 'user', content: 'now summarise' },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'run' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'a', input: {} },
          { type: 'tool_use', id: 'call_2', name: 'b', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'one' },
          { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'two' }] },
          { type: 'text', text: 'now summarise' },
        ],
      },
    ]);
  });

  it('consecutive assistant messages merge into one turn', () => {
    const { json } = toMessages({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: 'a' },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'b' }] },
      ],
    });
    expect(json.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
  });

  it('function tools get input_schema (an empty object schema when none); tool_choice and parallel_tool_calls map', () => {
    const tools = [
      {
        type: 'function',
        function: { name: 'shell', description: 'Run', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
      },
      { type: 'function', function: { name: 'now' } },
    ];
    const { json } = toMessages({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice: 'required', parallel_tool_calls: false });
    expect(json.tools).toEqual([
      { name: 'shell', description: 'Run', input_schema: { type: 'object', properties: { command: { type: 'array' } } } },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(json.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    const choice = (tool_choice: unknown, parallel?: boolean) =>
      toMessages({ messages: [{ role: 'user', content: 'x' }], tools, tool_choice, parallel_tool_calls: parallel }).json.tool_choice;
    expect(choice('auto')).toEqual({ type: 'auto' });
    expect(choice('none')).toEqual({ type: 'none' });
    expect(choice({ type: 'function', function: { name: 'now' } })).toEqual({ type: 'tool', name: 'now' });
    expect(choice(undefined, false)).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('max_completion_tokens, else max_tokens, capped; neither: the target’s max_output_tokens, else 8192', () => {
    const msg = [{ role: 'user', content: 'x' }];
    expect(toMessages({ messages: msg, max_completion_tokens: 3000, max_tokens: 10 }).json.max_tokens).toBe(3000);
    expect(toMessages({ messages: msg, max_tokens: 10 }).json.max_tokens).toBe(10);
    expect(toMessages({ messages: msg, max_tokens: 64000 }, { maxOutputTokens: 16000 }).json.max_tokens).toBe(16000);
    expect(toMessages({ messages: msg }, { maxOutputTokens: 16000 }).json.max_tokens).toBe(16000);
    expect(toMessages({ messages: msg }).json.max_tokens).toBe(8192);
  });

  it('temperature is clamped to [0, 1]; top_p carries; stop (string or list) becomes stop_sequences', () => {
    const msg = [{ role: 'user', content: 'x' }];
    expect(toMessages({ messages: msg, temperature: 1.7, top_p: 0.5, stop: 'END' }).json).toMatchObject({
      temperature: 1,
      top_p: 0.5,
      stop_sequences: ['END'],
    });
    expect(toMessages({ messages: msg, temperature: -1, stop: ['a', 'b'] }).json).toMatchObject({
      temperature: 0,
      stop_sequences: ['a', 'b'],
    });
  });

  it('stream carries; include_usage is kept for the answer; the dropped fields are gone', () => {
    const result = toMessages({
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      stream_options: { include_usage: true },
      user: 'u1',
      seed: 7,
      logit_bias: { '50256': -100 },
      logprobs: false,
      frequency_penalty: 0.1,
      presence_penalty: 0.1,
      store: true,
      metadata: { a: 'b' },
      prompt_cache_key: 'k',
      reasoning_effort: 'low',
      service_tier: 'auto',
      n: 1,
      response_format: { type: 'text' },
    });
    expect(Object.keys(result.json).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream']);
    expect(result.plan).toMatchObject({ agentWire: 'chat', upstreamWire: 'messages', agentStream: true, includeUsage: true });
  });

  it('names the first part it cannot carry', () => {
    const msg = [{ role: 'user', content: 'x' }];
    const cases: Array<[object, string]> = [
      [{ messages: msg, n: 2 }, 'n=2'],
      [{ messages: msg, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: {} } } }, 'response_format json_schema'],
      [{ messages: msg, response_format: { type: 'json_object' } }, 'response_format json_object'],
      [{ messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } }] }] }, 'audio input'],
      [{ messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1' } }] }] }, 'file input'],
      [{ messages: msg, functions: [{ name: 'f' }] }, 'functions/function_call (legacy)'],
      [{ messages: msg, audio: { voice: 'alloy', format: 'mp3' }, modalities: ['text', 'audio'] }, 'audio output'],
      [
        {
          messages: [
            { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '[1]' } }] },
          ],
        },
        'tool call c1 arguments that are not a JSON object',
      ],
      [
        { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/heic;base64,AAAA' } }] }] },
        'image of type image/heic',
      ],
      [{ messages: msg, tools: [{ type: 'custom', custom: { name: 'apply_patch' } }] }, 'custom tool apply_patch'],
      [{ messages: msg, web_search_options: {} }, 'field web_search_options'],
    ];
    for (const [body, detail] of cases) expect(refused(body), detail).toEqual({ ok: false, reason: 'untranslatable', detail });
  });
});
