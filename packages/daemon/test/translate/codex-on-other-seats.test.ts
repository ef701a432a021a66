/**
 * Codex's own request shape, whole, onto a Claude seat and onto a Chat
 * Completions seat (the same fixture the translation microbenchmark
 * measures).
 */
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { translateRequest } from '../../src/translate/index.js';
import { CODEX_CALL_IDS, CODEX_PATCH, codexMessagesAnswer, codexRequest } from './fixtures/codex.js';
import { checkResponsesOrder } from './helpers/event-order.js';
import { feed } from './helpers/feed.js';
import { responsesStream } from './helpers/sdk-accumulators.js';

const target = (model: string) => ({ model, maxOutputTokens: null, maxTokensField: 'max_completion_tokens' as const, codexBackend: false });

describe('Codex on other seats', () => {
  const body = codexRequest();

  it('is 38 KB', () => {
    expect(body.length).toBe(38 * 1024);
  });

  it('onto a Claude seat: instructions and the developer message as system, calls paired with results, hosted tools dropped', () => {
    const result = translateRequest('responses', 'messages', body, target('claude-sonnet-4-5'));
    if (!result.ok) throw new Error(result.detail);
    const json = JSON.parse(result.body.toString());
    expect(result.droppedTools).toEqual(['web_search', 'image_gen']);
    expect(json.system.startsWith('You are Codex')).toBe(true);
    expect(json.system).toContain('<permissions instructions>');
    expect(json).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      stream: true,
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
    expect(json.tools.map((t: { name: string }) => t.name)).toEqual([
      'shell',
      'update_plan',
      'apply_patch',
      'local_shell',
      'tool_search',
      'view_image',
    ]);
    const roles = json.messages.map((m: { role: string }) => m.role);
    for (let i = 1; i < roles.length; i++) expect(roles[i], `turn ${i}`).not.toBe(roles[i - 1]);
    const uses = json.messages.flatMap((m: { content: Array<{ type: string; id?: string; tool_use_id?: string; input?: unknown }> }) =>
      m.content.filter((b) => b.type === 'tool_use'),
    );
    const results = json.messages.flatMap((m: { content: Array<{ type: string; tool_use_id?: string }> }) =>
      m.content.filter((b) => b.type === 'tool_result'),
    );
    expect(uses.map((u: { id: string }) => u.id)).toEqual(CODEX_CALL_IDS);
    expect(results.map((r: { tool_use_id: string }) => r.tool_use_id)).toEqual(CODEX_CALL_IDS);
    expect(uses[1]).toMatchObject({ name: 'apply_patch', input: { input: CODEX_PATCH } });
    expect(uses[2]).toMatchObject({ name: 'local_shell', input: { type: 'exec', command: ['bash', '-lc', 'pnpm test'] } });
    expect(result.body.includes('encrypted_content')).toBe(false);
    expect(result.plan.declaredTools?.get('apply_patch')).toEqual({ kind: 'custom', name: 'apply_patch', namespace: null });
  });

  it('onto a Chat Completions seat: the same conversation as chat messages', () => {
    const result = translateRequest('responses', 'chat', body, target('qwen3-coder'));
    if (!result.ok) throw new Error(result.detail);
    const chat = JSON.parse(result.body.toString()) as ChatCompletionCreateParamsStreaming;
    expect(chat.messages.map((m) => m.role)).toEqual([
      'system',
      'system',
      'user',
      'user',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
    ]);
    expect(chat).toMatchObject({ stream: true, stream_options: { include_usage: true }, parallel_tool_calls: false, tool_choice: 'auto' });
  });

  it("streams a Claude seat's ~200-event answer back as text and an apply_patch custom_tool_call", async () => {
    const result = translateRequest('responses', 'messages', body, target('claude-sonnet-4-5'));
    if (!result.ok) throw new Error(result.detail);
    const upstream = codexMessagesAnswer();
    expect(upstream.length).toBe(200);
    const fed = feed(result.plan, upstream);
    expect(fed.outcome).toEqual({ end: 'complete' });
    checkResponsesOrder(fed.bytes);
    const response = await responsesStream(fed.chunks);
    expect(response.output.map((item) => item.type)).toEqual(['message', 'custom_tool_call']);
    expect(response.output[1]).toMatchObject({ name: 'apply_patch', input: CODEX_PATCH, call_id: 'toolu_01Codex0000000000000000' });
    expect(response.usage).toMatchObject({ input_tokens: 9_310, input_tokens_details: { cached_tokens: 9_000 } });
  });
});
