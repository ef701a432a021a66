/**
 * An Anthropic agent's request for a Chat Completions seat: one case per
 * row of the mapping table, then the parts that cannot be carried.
 */
import { describe, expect, it } from 'vitest';
import { type TranslationTarget, translateRequest } from '../../src/translate/index.js';

const TARGET: TranslationTarget = { model: 'gpt-5', maxOutputTokens: null, maxTokensField: 'max_completion_tokens', codexBackend: false };

function toChat(body: object, target: Partial<TranslationTarget> = {}) {
  const result = translateRequest('messages', 'chat', Buffer.from(JSON.stringify({ model: 'sonnet', max_tokens: 1024, ...body })), {
    ...TARGET,
    ...target,
  });
  if (!result.ok) throw new Error(`expected a translation, got ${result.reason}: ${result.detail}`);
  return { ...result, json: JSON.parse(result.body.toString()) as Record<string, unknown> & { messages: unknown[] } };
}

function refused(body: object) {
  const result = translateRequest('messages', 'chat', Buffer.from(JSON.stringify({ model: 'sonnet', max_tokens: 1024, ...body })), TARGET);
  if (result.ok) throw new Error(`expected a refusal, got ${result.body.toString()}`);
  return result;
}

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });

describe('messages → chat request', () => {
  it('the target model replaces the agent model', () => {
    expect(toChat({ messages: [user('hi')] }).json.model).toBe('gpt-5');
  });

  it('system as a string or text blocks becomes the first system message, blocks joined with a blank line', () => {
    expect(toChat({ system: 'Be brief.', messages: [user('hi')] }).json.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    const blocks = toChat({
      system: [
        { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Follow the repository conventions.' },
      ],
      messages: [user('hi')],
    });
    expect(blocks.json.messages[0]).toEqual({
      role: 'system',
      content: "You are Claude Code, Anthropic's official CLI for Claude.\n\nFollow the repository conventions.",
    });
  });

  it('a system entry mid-conversation becomes a system message at that position', () => {
    const { json } = toChat({
      messages: [
        user('first'),
        assistant('ok'),
        { role: 'system', content: [{ type: 'text', text: 'The user switched to plan mode.' }] },
        user('next'),
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'ok' },
      { role: 'system', content: 'The user switched to plan mode.' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('one user text block is a string; several are text parts', () => {
    expect(toChat({ messages: [user([{ type: 'text', text: 'only' }])] }).json.messages).toEqual([{ role: 'user', content: 'only' }]);
    expect(
      toChat({
        messages: [
          user([
            { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
            { type: 'text', text: 'Fix it.', cache_control: { type: 'ephemeral' } },
          ]),
        ],
      }).json.messages,
    ).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>ctx</system-reminder>' },
          { type: 'text', text: 'Fix it.' },
        ],
      },
    ]);
  });

  it('an image with a base64 source becomes a data URL, with a url source the URL', () => {
    const { json } = toChat({
      messages: [
        user([
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/diagram.png' } },
          { type: 'text', text: 'What is this?' },
        ]),
      ],
    });
    expect(json.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'image_url', image_url: { url: 'https://example.com/diagram.png' } },
        { type: 'text', text: 'What is this?' },
      ],
    });
  });

  it('assistant text blocks are joined; tool_use blocks become tool_calls with JSON arguments; thinking is dropped', () => {
    const { json } = toChat({
      messages: [
        user('go'),
        assistant([
          { type: 'thinking', thinking: 'plan', signature: 'sig' },
          { type: 'text', text: 'Reading ' },
          { type: 'text', text: 'the file.' },
          { type: 'tool_use', id: 'toolu_01', name: 'Read', input: { file_path: '/a.ts' } },
          { type: 'redacted_thinking', data: 'opaque' },
        ]),
      ],
    });
    expect(json.messages[1]).toEqual({
      role: 'assistant',
      content: 'Reading the file.',
      tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'Read', arguments: '{"file_path":"/a.ts"}' } }],
    });
  });

  it('an assistant turn with only tool calls has null content', () => {
    const { json } = toChat({
      messages: [user('go'), assistant([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }])],
    });
    expect(json.messages[1]).toMatchObject({ role: 'assistant', content: null });
  });

  it('consecutive tool results become one tool message each, before the turn’s other content, errors prefixed', () => {
    const { json } = toChat({
      messages: [
        user('run both'),
        assistant([
          { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } },
          { type: 'tool_use', id: 't2', name: 'Bash', input: { command: 'false' } },
        ]),
        user([
          { type: 'text', text: 'Here you go.' },
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'a.ts' },
              { type: 'text', text: 'b.ts' },
            ],
          },
          { type: 'tool_result', tool_use_id: 't2', content: 'exit 1', is_error: true, cache_control: { type: 'ephemeral' } },
        ]),
      ],
    });
    expect(json.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'a.ts\nb.ts' },
      { role: 'tool', tool_call_id: 't2', content: '[error] exit 1' },
      { role: 'user', content: 'Here you go.' },
    ]);
  });

  it('an image in a tool result goes in a user message right after the tool messages', () => {
    const { json } = toChat({
      messages: [
        user('screenshot'),
        assistant([{ type: 'tool_use', id: 't1', name: 'Screenshot', input: {} }]),
        user([
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [
              { type: 'text', text: 'captured' },
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            ],
          },
        ]),
      ],
    });
    expect(json.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'captured' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
    ]);
  });

  it('custom tools become function tools; server tools are dropped and reported by name', () => {
    const result = toChat({
      messages: [user('hi')],
      tools: [
        {
          name: 'Bash',
          description: 'Run a command',
          input_schema: { type: 'object', properties: { command: { type: 'string' } } },
          cache_control: { type: 'ephemeral' },
        },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
        { type: 'custom', name: 'Read', input_schema: { type: 'object' } },
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
      ],
    });
    expect(result.json.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'Bash',
          description: 'Run a command',
          parameters: { type: 'object', properties: { command: { type: 'string' } } },
        },
      },
      { type: 'function', function: { name: 'Read', parameters: { type: 'object' } } },
    ]);
    expect(result.droppedTools).toEqual(['web_search', 'str_replace_based_edit_tool']);
  });

  it('tool_choice auto / any / tool / none, and disable_parallel_tool_use', () => {
    const tools = [{ name: 'Bash', input_schema: { type: 'object' } }];
    const choice = (tool_choice: object) => {
      const { json } = toChat({ messages: [user('hi')], tools, tool_choice });
      return [json.tool_choice, json.parallel_tool_calls];
    };
    expect(choice({ type: 'auto' })).toEqual(['auto', undefined]);
    expect(choice({ type: 'any', disable_parallel_tool_use: true })).toEqual(['required', false]);
    expect(choice({ type: 'tool', name: 'Bash' })).toEqual([{ type: 'function', function: { name: 'Bash' } }, undefined]);
    expect(choice({ type: 'none' })).toEqual(['none', undefined]);
  });

  it('forcing a server tool cannot be carried (Claude Code’s WebSearch sub-request)', () => {
    expect(
      refused({
        messages: [user('search')],
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }],
        tool_choice: { type: 'tool', name: 'web_search' },
      }),
    ).toEqual({ ok: false, reason: 'untranslatable', detail: 'forced server tool web_search_20250305' });
  });

  it('max_tokens goes to the seat’s field, capped at the target’s max_output_tokens', () => {
    expect(toChat({ messages: [user('hi')], max_tokens: 32000 }).json.max_completion_tokens).toBe(32000);
    expect(toChat({ messages: [user('hi')], max_tokens: 32000 }, { maxOutputTokens: 8192 }).json.max_completion_tokens).toBe(8192);
    const old = toChat({ messages: [user('hi')], max_tokens: 4000 }, { maxTokensField: 'max_tokens', maxOutputTokens: 8192 }).json;
    expect([old.max_tokens, old.max_completion_tokens]).toEqual([4000, undefined]);
  });

  it('temperature, top_p and stop_sequences carry over; stream asks for the usage chunk', () => {
    const { json } = toChat({ messages: [user('hi')], temperature: 1, top_p: 0.9, stop_sequences: ['</done>'], stream: true });
    expect(json).toMatchObject({ temperature: 1, top_p: 0.9, stop: ['</done>'], stream: true, stream_options: { include_usage: true } });
  });

  it('top_k, metadata, thinking, service_tier, container, mcp_servers and cache_control are dropped', () => {
    const { json } = toChat({
      messages: [user('hi')],
      top_k: 40,
      metadata: { user_id: 'user_abc' },
      thinking: { type: 'enabled', budget_tokens: 10000 },
      service_tier: 'auto',
      container: 'container_1',
      mcp_servers: [{ type: 'url', url: 'https://mcp.example.com', name: 'x' }],
      context_management: { edits: [] },
      output_config: { effort: 'high' },
    });
    expect(Object.keys(json).sort()).toEqual(['max_completion_tokens', 'messages', 'model']);
  });

  it('names the first part it cannot carry', () => {
    const cases: Array<[object, string]> = [
      [
        { messages: [user([{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBE' } }])] },
        'document block',
      ],
      [{ messages: [user([{ type: 'search_result', source: 'x', title: 't', content: [] }])] }, 'search_result block'],
      [
        {
          messages: [
            user([
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }],
              },
            ]),
          ],
        },
        'document block in a tool result',
      ],
      [{ messages: [user([{ type: 'image', source: { type: 'file', file_id: 'file_1' } }])] }, 'image block with a file source'],
      [{ messages: [assistant([{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }])] }, 'server_tool_use block'],
      [{ messages: [user('hi')], output_config: { format: { type: 'json_schema', schema: {} } } }, 'output_config.format'],
      [{ messages: [user('hi')], brand_new_field: true }, 'field brand_new_field'],
    ];
    for (const [body, detail] of cases) expect(refused(body), detail).toEqual({ ok: false, reason: 'untranslatable', detail });
  });

  it('a malformed body is invalid, naming where', () => {
    expect(refused({ messages: 'hi' })).toEqual({ ok: false, reason: 'invalid', detail: 'messages: expected an array' });
    expect(refused({ messages: [{ role: 'robot', content: 'x' }] })).toEqual({
      ok: false,
      reason: 'invalid',
      detail: 'messages[0].role: expected "user", "assistant" or "system"',
    });
  });

  it('the plan keeps what the answer needs', () => {
    expect(toChat({ messages: [user('hi')], stream: true }).plan).toEqual({
      agentWire: 'messages',
      upstreamWire: 'chat',
      agentStream: true,
      upstreamStream: true,
      includeUsage: false,
      declaredTools: null,
    });
  });
});
