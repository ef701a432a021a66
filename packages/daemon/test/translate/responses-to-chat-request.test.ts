/**
 * A Responses agent's request (Codex) for a Chat Completions seat: one case
 * per row of the mapping table, then what cannot be carried.
 */
import { describe, expect, it } from 'vitest';
import { type TranslationTarget, translateRequest } from '../../src/translate/index.js';
import { APPLY_PATCH_GRAMMAR } from './fixtures/codex.js';

const TARGET: TranslationTarget = {
  model: 'qwen3-coder',
  maxOutputTokens: null,
  maxTokensField: 'max_completion_tokens',
  codexBackend: false,
};

function toChat(body: object, target: Partial<TranslationTarget> = {}) {
  const result = translateRequest('responses', 'chat', Buffer.from(JSON.stringify({ model: 'gpt', ...body })), { ...TARGET, ...target });
  if (!result.ok) throw new Error(`expected a translation, got ${result.reason}: ${result.detail}`);
  return { ...result, json: JSON.parse(result.body.toString()) as Record<string, unknown> & { messages: unknown[]; tools?: unknown[] } };
}

function refused(body: object) {
  const result = translateRequest('responses', 'chat', Buffer.from(JSON.stringify({ model: 'gpt', ...body })), TARGET);
  if (result.ok) throw new Error(`expected a refusal, got ${result.body.toString()}`);
  return result;
}

const userText = (text: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

describe('responses → chat request', () => {
  it('instructions become the first system message; a string input one user message', () => {
    expect(toChat({ instructions: 'You are Codex.', input: 'hi' }).json.messages).toEqual([
      { role: 'system', content: 'You are Codex.' },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('message items: user and assistant turns with text and images; system and developer in place', () => {
    const { json } = toChat({
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>never</permissions>' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this screenshot?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          ],
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A terminal.', annotations: [] }] },
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'ok' },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'system', content: '<permissions>never</permissions>' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this screenshot?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: 'A terminal.' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'ok' },
    ]);
  });

  it('function calls and their outputs; reasoning between them dropped; consecutive calls share one assistant message', () => {
    const { json } = toChat({
      input: [
        userText('look'),
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Reading two files.' }] },
        { type: 'function_call', call_id: 'call_a', name: 'shell', arguments: '{"command":["cat","a"]}' },
        { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAA' },
        { type: 'function_call', call_id: 'call_b', name: 'shell', arguments: '{"command":["cat","b"]}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'A' },
        {
          type: 'function_call_output',
          call_id: 'call_b',
          output: [
            { type: 'input_text', text: 'B1' },
            { type: 'input_text', text: 'B2' },
          ],
        },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'look' }] },
      {
        role: 'assistant',
        content: 'Reading two files.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'shell', arguments: '{"command":["cat","a"]}' } },
          { id: 'call_b', type: 'function', function: { name: 'shell', arguments: '{"command":["cat","b"]}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'A' },
      { role: 'tool', tool_call_id: 'call_b', content: 'B1\nB2' },
    ]);
  });

  it('an image in a call output goes in a user message after the tool message', () => {
    const { json } = toChat({
      input: [
        { type: 'function_call', call_id: 'call_i', name: 'view_image', arguments: '{"path":"a.png"}' },
        {
          type: 'function_call_output',
          call_id: 'call_i',
          output: [
            { type: 'input_text', text: 'attached' },
            { type: 'input_image', image_url: 'https://example.com/a.png' },
          ],
        },
      ],
    });
    expect(json.messages.slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'call_i', content: 'attached' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
    ]);
  });

  it("Codex's freeform apply_patch call and its output travel as a function call whose input is {input}", () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n';
    const { json } = toChat({
      input: [
        { type: 'custom_tool_call', call_id: 'call_p', name: 'apply_patch', input: patch },
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Success.' },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_p', type: 'function', function: { name: 'apply_patch', arguments: JSON.stringify({ input: patch }) } }],
      },
      { role: 'tool', tool_call_id: 'call_p', content: 'Success.' },
    ]);
  });

  it('a local_shell_call becomes a local_shell function call with its action; its output either way Codex sends it', () => {
    const action = { type: 'exec', command: ['ls', '-la'], env: {}, working_directory: '/w' };
    const { json } = toChat({
      input: [
        { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_s', status: 'completed', action },
        { type: 'function_call_output', call_id: 'call_s', output: 'total 0' },
        { type: 'local_shell_call', id: 'lsh_2', call_id: 'call_t', status: 'completed', action },
        { type: 'local_shell_call_output', id: 'call_t', output: 'total 1' },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'local_shell', arguments: JSON.stringify(action) } }],
      },
      { role: 'tool', tool_call_id: 'call_s', content: 'total 0' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_t', type: 'function', function: { name: 'local_shell', arguments: JSON.stringify(action) } }],
      },
      { role: 'tool', tool_call_id: 'call_t', content: 'total 1' },
    ]);
  });

  it('tools: functions, freeform (grammar in the description), local_shell, a client tool search; hosted tools dropped', () => {
    const result = toChat({
      input: 'x',
      tools: [
        {
          type: 'function',
          name: 'shell',
          description: 'Run',
          strict: false,
          parameters: { type: 'object', properties: { command: { type: 'array' } } },
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Edit files.',
          format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_GRAMMAR },
        },
        { type: 'custom', name: 'note', format: { type: 'text' } },
        { type: 'local_shell' },
        {
          type: 'tool_search',
          execution: 'client',
          description: 'Find tools',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
        { type: 'web_search' },
        { type: 'image_gen' },
        { type: 'file_search', vector_store_ids: ['vs_1'] },
        { type: 'code_interpreter', container: { type: 'auto' } },
        { type: 'computer_use_preview', display_width: 1, display_height: 1, environment: 'linux' },
        { type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp' },
      ],
    });
    const freeform = { type: 'object', properties: { input: { type: 'string' } }, required: ['input'], additionalProperties: false };
    expect(result.json.tools).toEqual([
      {
        type: 'function',
        function: { name: 'shell', description: 'Run', parameters: { type: 'object', properties: { command: { type: 'array' } } } },
      },
      { type: 'function', function: { name: 'apply_patch', description: `Edit files.\n\n${APPLY_PATCH_GRAMMAR}`, parameters: freeform } },
      { type: 'function', function: { name: 'note', parameters: freeform } },
      {
        type: 'function',
        function: {
          name: 'local_shell',
          description: 'Runs a command on the user’s machine. `command` is the argument vector.',
          parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
        },
      },
      {
        type: 'function',
        function: {
          name: 'tool_search',
          description: 'Find tools',
          parameters: { type: 'object', properties: { query: { type: 'string' } } },
        },
      },
    ]);
    expect(result.droppedTools).toEqual(['web_search', 'image_gen', 'file_search', 'code_interpreter', 'computer_use_preview', 'deepwiki']);
    expect([...result.plan.declaredTools!.entries()]).toEqual([
      ['shell', { kind: 'function', name: 'shell', namespace: null }],
      ['apply_patch', { kind: 'custom', name: 'apply_patch', namespace: null }],
      ['note', { kind: 'custom', name: 'note', namespace: null }],
      ['local_shell', { kind: 'local_shell' }],
      ['tool_search', { kind: 'tool_search' }],
    ]);
  });

  it('a namespace’s tools are declared by their namespaced name, and calls in the input are named the same way', () => {
    const result = toChat({
      input: [{ type: 'function_call', call_id: 'c1', name: 'search', namespace: 'docs', arguments: '{}' }],
      tools: [
        {
          type: 'namespace',
          name: 'docs',
          description: 'Docs server',
          tools: [{ type: 'function', name: 'search', parameters: { type: 'object' } }],
        },
      ],
    });
    expect(result.json.tools).toEqual([{ type: 'function', function: { name: 'docs__search', parameters: { type: 'object' } } }]);
    expect((result.json.messages[0] as { tool_calls: Array<{ function: { name: string } }> }).tool_calls[0]!.function.name).toBe(
      'docs__search',
    );
    expect(result.plan.declaredTools!.get('docs__search')).toEqual({ kind: 'function', name: 'search', namespace: 'docs' });
  });

  it('a client tool search: its call, its output, and the tools it loaded are declared', () => {
    const loaded = { type: 'function', name: 'jira_create', description: 'Create an issue', parameters: { type: 'object' } };
    const { json } = toChat({
      input: [
        { type: 'tool_search_call', call_id: 'ts1', execution: 'client', arguments: { query: 'jira' } },
        { type: 'tool_search_output', call_id: 'ts1', execution: 'client', tools: [loaded] },
      ],
      tools: [{ type: 'tool_search', execution: 'client', parameters: { type: 'object' } }],
    });
    expect(json.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'ts1', type: 'function', function: { name: 'tool_search', arguments: '{"query":"jira"}' } }],
      },
      { role: 'tool', tool_call_id: 'ts1', content: JSON.stringify([loaded]) },
    ]);
    expect(json.tools?.map((t) => (t as { function: { name: string } }).function.name)).toEqual(['tool_search', 'jira_create']);
  });

  it('hosted call items in the input are dropped', () => {
    const { json } = toChat({
      input: [
        userText('search'),
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
        userText('thanks'),
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'search' }] },
      { role: 'user', content: [{ type: 'text', text: 'thanks' }] },
    ]);
  });

  it('tool_choice, parallel_tool_calls, max_output_tokens (capped), temperature, top_p, stream', () => {
    const tools = [{ type: 'function', name: 'shell', parameters: { type: 'object' } }];
    const { json } = toChat(
      {
        input: 'x',
        tools,
        tool_choice: { type: 'function', name: 'shell' },
        parallel_tool_calls: false,
        max_output_tokens: 64000,
        temperature: 0.2,
        top_p: 0.9,
        stream: true,
      },
      { maxOutputTokens: 32000, maxTokensField: 'max_tokens' },
    );
    expect(json).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'shell' } },
      parallel_tool_calls: false,
      max_tokens: 32000,
      temperature: 0.2,
      top_p: 0.9,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(toChat({ input: 'x', tools, tool_choice: { type: 'custom', name: 'shell' } }).json.tool_choice).toEqual({
      type: 'function',
      function: { name: 'shell' },
    });
    expect(toChat({ input: 'x', tools, tool_choice: 'required' }).json.tool_choice).toBe('required');
  });

  it('a structured output format carries as response_format', () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    expect(
      toChat({ input: 'x', text: { format: { type: 'json_schema', name: 'verdict', schema, strict: true }, verbosity: 'low' } }).json
        .response_format,
    ).toEqual({
      type: 'json_schema',
      json_schema: { name: 'verdict', schema, strict: true },
    });
  });

  it('store, include, prompt_cache_key, reasoning, text.verbosity, client_metadata, metadata, service_tier, truncation, user are dropped', () => {
    const { json } = toChat({
      input: 'x',
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'k',
      reasoning: { effort: 'high', summary: 'auto' },
      text: { verbosity: 'low' },
      client_metadata: { a: 1 },
      metadata: { b: '2' },
      service_tier: 'auto',
      truncation: 'auto',
      user: 'u',
    });
    expect(Object.keys(json).sort()).toEqual(['messages', 'model']);
  });

  it('names what it cannot carry', () => {
    const cases: Array<[object, string]> = [
      [{ input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id'],
      [{ input: 'x', conversation: 'conv_1' }, 'conversation'],
      [{ input: 'x', background: true }, 'background'],
      [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'item_reference item'],
      [{ input: [{ id: 'msg_1' }] }, 'item_reference item'],
      [{ input: [{ type: 'compaction', encrypted_content: 'gAAA' }] }, 'compaction item'],
      [{ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }, 'input_file part'],
      [{ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1', detail: 'auto' }] }] }, 'input_image by file_id'],
      [
        { input: 'x', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search_preview' } },
        'forced hosted tool web_search_preview',
      ],
      [{ input: 'x', tools: [{ type: 'web_search' }], tool_choice: 'required' }, 'forced hosted tool web_search'],
      [{ input: 'x', tools: [{ type: 'shell' }] }, 'tool shell'],
      [
        {
          input: 'x',
          tools: [{ type: 'function', name: 'f', parameters: {} }],
          tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] },
        },
        'tool_choice allowed_tools',
      ],
    ];
    for (const [body, detail] of cases) expect(refused(body), detail).toEqual({ ok: false, reason: 'untranslatable', detail });
  });
});
