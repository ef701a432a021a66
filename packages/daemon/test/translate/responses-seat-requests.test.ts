/**
 * The pairs that meet the Responses wire and the Messages wire (through the
 * chat mapping), and chat or messages requests for a `wire: responses` seat,
 * including ChatGPT's Codex backend.
 */
import { describe, expect, it } from 'vitest';
import { type TranslationTarget, translateRequest, type Wire } from '../../src/translate/index.js';

const CLAUDE: TranslationTarget = {
  model: 'claude-sonnet-4-5',
  maxOutputTokens: null,
  maxTokensField: 'max_completion_tokens',
  codexBackend: false,
};
const RESPONSES: TranslationTarget = {
  model: 'gpt-5',
  maxOutputTokens: null,
  maxTokensField: 'max_completion_tokens',
  codexBackend: false,
};
const CODEX_BACKEND: TranslationTarget = { ...RESPONSES, model: 'gpt-5-codex', codexBackend: true };

function translate(agent: Wire, upstream: Wire, body: object, target: TranslationTarget) {
  const result = translateRequest(agent, upstream, Buffer.from(JSON.stringify(body)), target);
  if (!result.ok) throw new Error(`expected a translation, got ${result.reason}: ${result.detail}`);
  return { ...result, json: JSON.parse(result.body.toString()) as Record<string, unknown> };
}

function refusal(agent: Wire, upstream: Wire, body: object, target: TranslationTarget) {
  const result = translateRequest(agent, upstream, Buffer.from(JSON.stringify(body)), target);
  return result.ok ? null : result;
}

describe('responses → messages request', () => {
  it('instructions and system/developer items join into system; calls become tool_use and tool_result; max_tokens defaults to 8192', () => {
    const patch = '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n';
    const { json, droppedTools } = translate(
      'responses',
      'messages',
      {
        model: 'gpt',
        instructions: 'You are Codex.',
        input: [
          { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'sandbox: read-only' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Clean up.' }] },
          { type: 'reasoning', id: 'rs', summary: [], encrypted_content: 'gAAAA' },
          { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'old.txt' },
          { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: patch },
          { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Success.' },
        ],
        tools: [
          { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array' } } }, strict: false },
          { type: 'custom', name: 'apply_patch', description: 'Edit files.' },
          { type: 'web_search' },
        ],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        stream: true,
      },
      CLAUDE,
    );
    expect(json).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: 'You are Codex.\n\nsandbox: read-only',
      stream: true,
    });
    expect(json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Clean up.' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'shell', input: { command: ['ls'] } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'old.txt' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_2', name: 'apply_patch', input: { input: patch } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_2', content: 'Success.' }] },
    ]);
    expect(json.tools).toEqual([
      { name: 'shell', input_schema: { type: 'object', properties: { command: { type: 'array' } } } },
      {
        name: 'apply_patch',
        description: 'Edit files.',
        input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false },
      },
    ]);
    expect(json.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(droppedTools).toEqual(['web_search']);
  });

  it('a local_shell call and its output', () => {
    const action = { type: 'exec', command: ['pnpm', 'test'], env: {} };
    const { json } = translate(
      'responses',
      'messages',
      {
        model: 'gpt',
        input: [
          { type: 'local_shell_call', id: 'lsh', call_id: 'call_s', status: 'completed', action },
          { type: 'local_shell_call_output', id: 'call_s', output: 'ok' },
        ],
        tools: [{ type: 'local_shell' }],
      },
      CLAUDE,
    );
    expect(json.messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_s', name: 'local_shell', input: action }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_s', content: 'ok' }] },
    ]);
  });

  it('max_output_tokens capped; temperature clamped; a structured output format and previous_response_id cannot be carried', () => {
    expect(
      translate(
        'responses',
        'messages',
        { model: 'gpt', input: 'x', max_output_tokens: 100000, temperature: 1.5 },
        { ...CLAUDE, maxOutputTokens: 64000 },
      ).json,
    ).toMatchObject({
      max_tokens: 64000,
      temperature: 1,
    });
    expect(
      refusal(
        'responses',
        'messages',
        { model: 'gpt', input: 'x', text: { format: { type: 'json_schema', name: 'v', schema: {} } } },
        CLAUDE,
      ),
    ).toEqual({
      ok: false,
      reason: 'untranslatable',
      detail: 'text.format json_schema',
    });
    expect(refusal('responses', 'messages', { model: 'gpt', input: 'x', previous_response_id: 'resp_abc' }, CLAUDE)).toEqual({
      ok: false,
      reason: 'untranslatable',
      detail: 'previous_response_id',
    });
  });
});

describe('chat → responses request', () => {
  it('leading system messages become instructions, later ones developer items; calls and results become items; tools are not strict', () => {
    const { json } = translate(
      'chat',
      'responses',
      {
        model: 'gpt',
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'developer', content: 'Use metric units.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather?' },
              { type: 'image_url', image_url: { url: 'https://example.com/sky.jpg', detail: 'low' } },
            ],
          },
          {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_w', content: '4°C' },
          { role: 'system', content: 'Answer in one line.' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'weather',
              description: 'Weather by city',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        ],
        tool_choice: { type: 'function', function: { name: 'weather' } },
        parallel_tool_calls: false,
        max_completion_tokens: 500,
        temperature: 0.3,
        top_p: 0.8,
        stream: true,
        stream_options: { include_usage: true },
        reasoning_effort: 'low',
        prompt_cache_key: 'session-1',
        user: 'u1',
      },
      RESPONSES,
    );
    expect(json).toEqual({
      model: 'gpt-5',
      instructions: 'You are terse.\n\nUse metric units.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather?' },
            { type: 'input_image', image_url: 'https://example.com/sky.jpg', detail: 'low' },
          ],
        },
        { type: 'message', role: 'assistant', content: 'Checking.' },
        { type: 'function_call', call_id: 'call_w', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_w', output: '4°C' },
        { type: 'message', role: 'developer', content: 'Answer in one line.' },
      ],
      max_output_tokens: 500,
      temperature: 0.3,
      top_p: 0.8,
      reasoning: { effort: 'low' },
      prompt_cache_key: 'session-1',
      tools: [
        {
          type: 'function',
          name: 'weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: false,
          description: 'Weather by city',
        },
      ],
      tool_choice: { type: 'function', name: 'weather' },
      parallel_tool_calls: false,
      stream: true,
    });
  });

  it('instructions are "" when there is no system message; a json_schema response format carries as text.format', () => {
    const schema = { type: 'object' };
    const { json } = translate(
      'chat',
      'responses',
      {
        model: 'gpt',
        messages: [{ role: 'user', content: 'x' }],
        response_format: { type: 'json_schema', json_schema: { name: 'out', schema, strict: true } },
      },
      RESPONSES,
    );
    expect(json.instructions).toBe('');
    expect(json.text).toEqual({ format: { type: 'json_schema', name: 'out', schema, strict: true } });
  });

  it('stop cannot be carried: the Responses API has no stop sequences', () => {
    expect(refusal('chat', 'responses', { model: 'gpt', messages: [{ role: 'user', content: 'x' }], stop: ['END'] }, RESPONSES)).toEqual({
      ok: false,
      reason: 'untranslatable',
      detail: 'stop',
    });
    expect(translate('chat', 'responses', { model: 'gpt', messages: [{ role: 'user', content: 'x' }], stop: [] }, RESPONSES).ok).toBe(true);
  });

  it('the Codex backend is always asked to stream and not to store, never given an output cap; the answer is assembled for an agent that did not stream', () => {
    const result = translate(
      'chat',
      'responses',
      { model: 'gpt', messages: [{ role: 'user', content: 'x' }], max_tokens: 100, stream: false },
      { ...CODEX_BACKEND, maxOutputTokens: 4000 },
    );
    expect(result.json).toEqual({
      model: 'gpt-5-codex',
      instructions: '',
      input: [{ type: 'message', role: 'user', content: 'x' }],
      stream: true,
      store: false,
    });
    expect(result.upstreamStream).toBe(true);
    expect(result.plan).toMatchObject({ agentStream: false, upstreamStream: true, agentWire: 'chat', upstreamWire: 'responses' });
  });
});

describe('messages → responses request', () => {
  it('system → instructions, a mid-conversation system entry → a developer item, tool_use/tool_result → call items, server tools dropped', () => {
    const result = translate(
      'messages',
      'responses',
      {
        model: 'sonnet',
        max_tokens: 2048,
        system: [{ type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." }],
        messages: [
          { role: 'user', content: 'List files.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts' }] },
          { role: 'system', content: 'Plan mode is on.' },
        ],
        tools: [
          { name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
          { type: 'web_search_20250305', name: 'web_search' },
        ],
        stream: true,
      },
      RESPONSES,
    );
    expect(result.json).toEqual({
      model: 'gpt-5',
      instructions: "You are Claude Code, Anthropic's official CLI for Claude.",
      input: [
        { type: 'message', role: 'user', content: 'List files.' },
        { type: 'function_call', call_id: 'toolu_1', name: 'Bash', arguments: '{"command":"ls"}' },
        { type: 'function_call_output', call_id: 'toolu_1', output: 'a.ts' },
        { type: 'message', role: 'developer', content: 'Plan mode is on.' },
      ],
      max_output_tokens: 2048,
      tools: [
        { type: 'function', name: 'Bash', parameters: { type: 'object', properties: { command: { type: 'string' } } }, strict: false },
      ],
      stream: true,
    });
    expect(result.droppedTools).toEqual(['web_search']);
  });

  it('stop_sequences cannot be carried; the Codex backend gets stream and store:false, no cap', () => {
    expect(
      refusal(
        'messages',
        'responses',
        { model: 'sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'x' }], stop_sequences: ['\n\nHuman:'] },
        RESPONSES,
      ),
    ).toEqual({
      ok: false,
      reason: 'untranslatable',
      detail: 'stop_sequences',
    });
    const { json, plan } = translate(
      'messages',
      'responses',
      { model: 'sonnet', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      CODEX_BACKEND,
    );
    expect(json).toEqual({
      model: 'gpt-5-codex',
      instructions: '',
      input: [{ type: 'message', role: 'user', content: 'x' }],
      stream: true,
      store: false,
    });
    expect(plan).toMatchObject({ agentStream: false, upstreamStream: true });
  });
});
