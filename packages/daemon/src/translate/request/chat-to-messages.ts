import type { Tool, ToolChoice } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletionCreateParamsBase, ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { isText, type Text } from '../json/text.js';
import { arrayAt, given, malformed, objectAt, untranslatable } from './cannot-translate.js';
import { refuseChatOnlyParts } from './chat-fields.js';
import { messagesTurns } from './chat-turns-to-messages.js';
import type { MappedRequest, MessagesRequest } from './messages-to-chat.js';
import { MESSAGES_DEFAULT_MAX_TOKENS, outputTokenAsk } from './output-tokens.js';

export interface MessagesRequestOptions {
  model: string;
  maxOutputTokens: number | null;
}

/** An OpenAI Chat Completions agent's request for an Anthropic seat (`prompt_cache_key`, `reasoning_effort` and `verbosity` dropped). */
export function chatToMessages(
  body: Lazy<ChatCompletionCreateParamsBase>,
  options: MessagesRequestOptions,
): MappedRequest<MessagesRequest> {
  refuseChatOnlyParts(body);
  if (given(body.response_format) && body.response_format.type !== 'text') untranslatable(`response_format ${body.response_format.type}`);

  const turns = messagesTurns(body.messages);
  const maxTokens = outputTokenAsk(body.max_completion_tokens ?? body.max_tokens, options.maxOutputTokens) ?? MESSAGES_DEFAULT_MAX_TOKENS;
  const out: MessagesRequest = { model: options.model, max_tokens: maxTokens, messages: turns.messages };
  if (turns.system !== null) out.system = turns.system;
  if (given(body.temperature)) out.temperature = Math.min(1, Math.max(0, body.temperature));
  if (given(body.top_p)) out.top_p = body.top_p;
  if (given(body.stop)) {
    const stop = isText(body.stop) ? [body.stop] : arrayAt<Text>(body.stop, 'stop');
    if (stop.length > 0) out.stop_sequences = stop;
  }
  if (body.stream === true) out.stream = true;
  const tools = messagesTools(body.tools);
  if (tools.length > 0) {
    out.tools = tools;
    const choice = messagesToolChoice(body.tool_choice, body.parallel_tool_calls === false);
    if (choice !== null) out.tool_choice = choice;
  }
  return { body: out, droppedTools: [] };
}

function messagesTools(tools: unknown): Lazy<Tool>[] {
  if (!given(tools)) return [];
  const list = arrayAt<Lazy<ChatCompletionTool>>(tools, 'tools');
  return list.map((entry, i) => {
    const tool = objectAt<Lazy<ChatCompletionTool>>(entry, `tools[${i}]`);
    if (tool.type === 'custom') untranslatable(`custom tool ${tool.custom.name}`);
    if (tool.type !== 'function') untranslatable(`${String((tool as { type?: unknown }).type)} tool`);
    const fn = objectAt<(typeof tool)['function']>(tool.function, `tools[${i}].function`);
    const out: Lazy<Tool> = {
      name: fn.name,
      input_schema: (fn.parameters ?? { type: 'object', properties: {} }) as Lazy<Tool['input_schema']>,
    };
    if (given(fn.description)) out.description = fn.description;
    return out;
  });
}

/** `parallel_tool_calls: false` rides on the choice; with no choice given it rides on `auto`. */
function messagesToolChoice(choice: Lazy<ChatCompletionToolChoiceOption> | undefined, serial: boolean): Lazy<ToolChoice> | null {
  let out: Lazy<ToolChoice>;
  if (!given(choice)) {
    if (!serial) return null;
    out = { type: 'auto' };
  } else if (choice === 'auto') out = { type: 'auto' };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice === 'none') return { type: 'none' };
  else if (typeof choice === 'object' && choice.type === 'function') out = { type: 'tool', name: choice.function.name };
  else if (typeof choice === 'object') return untranslatable(`tool_choice ${String(choice.type)}`);
  else return malformed('tool_choice', '"auto", "required", "none" or a named function');
  if (serial) out.disable_parallel_tool_use = true;
  return out;
}
