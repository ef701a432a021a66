import type { MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { isEmptyText } from '../json/text.js';
import { arrayAt, given, untranslatable } from './cannot-translate.js';
import { chatToolChoice, chatTools } from './messages-tools-to-chat.js';
import { pushTurn, systemText } from './messages-turns-to-chat.js';
import { outputTokenAsk } from './output-tokens.js';

/** Fields the Messages API still takes that the SDK's request type no longer lists. */
export type MessagesRequest = Lazy<MessageCreateParamsBase> & {
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  mcp_servers?: unknown;
  context_management?: unknown;
};

export interface ChatRequestOptions {
  model: string;
  maxOutputTokens: number | null;
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

export interface MappedRequest<T> {
  body: T;
  droppedTools: string[];
}

/**
 * Top-level fields with no Chat Completions counterpart that change nothing
 * the answer says: sampling details, thinking (chat returns no thinking to
 * carry back), server-side containers and context management, metadata.
 */
const DROPPED = new Set([
  'top_k',
  'metadata',
  'thinking',
  'service_tier',
  'container',
  'mcp_servers',
  'cache_control',
  'context_management',
  'speed',
  'inference_geo',
  'diagnostics',
  'user_profile_id',
  'workspace_id',
]);
const MAPPED = new Set([
  'model',
  'messages',
  'system',
  'max_tokens',
  'temperature',
  'top_p',
  'stop_sequences',
  'stream',
  'tools',
  'tool_choice',
]);

/** An Anthropic agent's request for an OpenAI Chat Completions seat. */
export function messagesToChat(body: MessagesRequest, options: ChatRequestOptions): MappedRequest<Lazy<ChatCompletionCreateParamsBase>> {
  for (const key of Object.keys(body)) {
    if (MAPPED.has(key) || DROPPED.has(key)) continue;
    if (key === 'output_config') checkOutputConfig(body.output_config);
    else untranslatable(`field ${key}`);
  }
  const messages: Lazy<ChatCompletionMessageParam>[] = [];
  if (given(body.system)) {
    const system = systemText(body.system, 'system');
    if (!isEmptyText(system)) messages.push({ role: 'system', content: system });
  }
  const turns = arrayAt<unknown>(body.messages, 'messages');
  for (let i = 0; i < turns.length; i++) pushTurn(messages, turns[i], `messages[${i}]`);

  const out: Lazy<ChatCompletionCreateParamsBase> = { model: options.model, messages };
  const maxTokens = outputTokenAsk(body.max_tokens, options.maxOutputTokens);
  if (maxTokens !== null) out[options.maxTokensField] = maxTokens;
  if (given(body.temperature)) out.temperature = body.temperature;
  if (given(body.top_p)) out.top_p = body.top_p;
  if (given(body.stop_sequences) && body.stop_sequences.length > 0) out.stop = body.stop_sequences;
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  const tools = chatTools(body.tools);
  const choice = chatToolChoice(body.tool_choice, tools);
  if (tools.tools.length > 0) {
    out.tools = tools.tools;
    if (choice.tool_choice !== undefined) out.tool_choice = choice.tool_choice;
    if (choice.parallel_tool_calls !== undefined) out.parallel_tool_calls = choice.parallel_tool_calls;
  }
  return { body: out, droppedTools: tools.dropped };
}

/** `output_config.effort` is a thinking budget (dropped with `thinking`); a structured-output `format` cannot be carried. */
function checkOutputConfig(config: MessagesRequest['output_config']): void {
  if (!given(config)) return;
  for (const key of Object.keys(config)) {
    if (key === 'effort') continue;
    if (key === 'format' && !given(config.format)) continue;
    untranslatable(`output_config.${key}`);
  }
}
