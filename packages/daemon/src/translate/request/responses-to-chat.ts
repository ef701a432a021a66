import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { Lazy } from '../json/read-json.js';
import { isEmptyText, isText } from '../json/text.js';
import type { DeclaredTool } from '../wire.js';
import { given, untranslatable } from './cannot-translate.js';
import type { ChatRequestOptions, MappedRequest } from './messages-to-chat.js';
import { outputTokenAsk } from './output-tokens.js';
import { ResponsesInput } from './responses-items-to-chat.js';
import { chatToolChoiceOf, ResponsesTools } from './responses-tools-to-chat.js';

export type ResponsesRequest = Lazy<ResponseCreateParamsBase> & { client_metadata?: unknown };

export interface ResponsesMapped<T> extends MappedRequest<T> {
  /** the agent's tools by the name the target sees, so calls go back as the agent declared them */
  declaredTools: Map<string, DeclaredTool>;
}

/**
 * Storage, caching, reasoning and tracing settings of the Responses API:
 * nothing a Chat Completions or Messages seat can act on (reasoning items
 * are bound to the account that made them).
 */
const DROPPED = new Set([
  'store',
  'include',
  'prompt_cache_key',
  'prompt_cache_retention',
  'prompt_cache_options',
  'reasoning',
  'client_metadata',
  'metadata',
  'service_tier',
  'truncation',
  'user',
  'safety_identifier',
  'stream_options',
  'top_logprobs',
  'context_management',
  'moderation',
]);
const MAPPED = new Set([
  'model',
  'input',
  'instructions',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'temperature',
  'top_p',
  'stream',
  'text',
  'background',
]);

/** A Responses agent's request (Codex) for a Chat Completions seat. */
export function responsesToChat(
  body: ResponsesRequest,
  options: ChatRequestOptions,
): ResponsesMapped<Lazy<ChatCompletionCreateParamsBase>> {
  for (const key of Object.keys(body)) {
    if (MAPPED.has(key) || DROPPED.has(key)) continue;
    // a stored response or conversation lives on the seat that made it
    if (key === 'previous_response_id' || key === 'conversation' || key === 'prompt') {
      if (given(body[key])) untranslatable(key);
      continue;
    }
    untranslatable(`field ${key}`);
  }
  if (body.background === true) untranslatable('background');

  const tools = new ResponsesTools();
  tools.add(body.tools, 'tools');
  const messages: Lazy<ChatCompletionMessageParam>[] = [];
  if (given(body.instructions) && isText(body.instructions) && !isEmptyText(body.instructions)) {
    messages.push({ role: 'system', content: body.instructions });
  }
  const input = new ResponsesInput(tools);
  if (given(body.input)) input.add(body.input);
  messages.push(...input.messages);

  const out: Lazy<ChatCompletionCreateParamsBase> = { model: options.model, messages };
  const maxTokens = outputTokenAsk(body.max_output_tokens, options.maxOutputTokens);
  if (maxTokens !== null) out[options.maxTokensField] = maxTokens;
  if (given(body.temperature)) out.temperature = body.temperature;
  if (given(body.top_p)) out.top_p = body.top_p;
  const format = body.text?.format;
  if (given(format) && format.type !== 'text') {
    out.response_format =
      format.type === 'json_schema'
        ? {
            type: 'json_schema',
            json_schema: { name: format.name, schema: format.schema, strict: format.strict ?? null, description: format.description },
          }
        : { type: 'json_object' };
  }
  if (body.stream === true) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (tools.functions.length > 0) {
    out.tools = tools.functions;
    const choice = chatToolChoiceOf(body.tool_choice, tools);
    if (choice !== undefined) out.tool_choice = choice;
    if (given(body.parallel_tool_calls)) out.parallel_tool_calls = body.parallel_tool_calls;
  } else chatToolChoiceOf(body.tool_choice, tools);
  return { body: out, droppedTools: tools.dropped, declaredTools: tools.declared };
}
