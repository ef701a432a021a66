import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { FunctionTool, ResponseCreateParamsBase, ResponseInputContent, ResponseInputItem } from 'openai/resources/responses/responses';
import type { Lazy } from '../json/read-json.js';
import { isEmptyText, isText, joinText, type Text, textString } from '../json/text.js';
import { arrayAt, given, malformed, objectAt, untranslatable } from './cannot-translate.js';
import { refuseChatOnlyParts } from './chat-fields.js';
import type { MappedRequest } from './messages-to-chat.js';
import { outputTokenAsk } from './output-tokens.js';

export interface ResponsesRequestOptions {
  model: string;
  maxOutputTokens: number | null;
  /** ChatGPT's Codex backend: always streamed and never stored; it refuses an output cap */
  codexBackend: boolean;
}

type Item = Lazy<ResponseInputItem>;

/**
 * An OpenAI Chat Completions agent's request (or an Anthropic agent's, once
 * in chat form) for a Responses-only seat. The leading system and developer
 * messages become `instructions`; later ones become developer items (the
 * Codex backend refuses system items); tool calls and results become
 * function_call and function_call_output items.
 */
export function chatToResponses(
  body: Lazy<ChatCompletionCreateParamsBase>,
  options: ResponsesRequestOptions,
): MappedRequest<Lazy<ResponseCreateParamsBase>> {
  refuseChatOnlyParts(body);
  if (given(body.stop) && (isText(body.stop) ? !isEmptyText(body.stop) : arrayAt(body.stop, 'stop').length > 0)) untranslatable('stop');

  const { instructions, input } = responsesInput(body.messages);
  const out: Lazy<ResponseCreateParamsBase> = { model: options.model, instructions, input };
  if (!options.codexBackend) {
    const maxTokens = outputTokenAsk(body.max_completion_tokens ?? body.max_tokens, options.maxOutputTokens);
    if (maxTokens !== null) out.max_output_tokens = maxTokens;
  }
  if (given(body.temperature)) out.temperature = body.temperature;
  if (given(body.top_p)) out.top_p = body.top_p;
  const format = body.response_format;
  if (given(format) && format.type !== 'text') {
    out.text =
      format.type === 'json_schema'
        ? {
            format: {
              type: 'json_schema',
              name: format.json_schema.name,
              schema: format.json_schema.schema ?? {},
              strict: format.json_schema.strict ?? null,
              description: format.json_schema.description,
            },
          }
        : { format: { type: 'json_object' } };
  }
  if (given(body.verbosity)) out.text = { ...out.text, verbosity: body.verbosity };
  if (given(body.reasoning_effort)) out.reasoning = { effort: body.reasoning_effort };
  if (given(body.prompt_cache_key)) out.prompt_cache_key = body.prompt_cache_key;
  const tools = responsesTools(body.tools);
  if (tools.length > 0) {
    out.tools = tools;
    const choice = body.tool_choice;
    if (given(choice)) {
      if (choice === 'auto' || choice === 'none' || choice === 'required') out.tool_choice = choice;
      else if (typeof choice === 'object' && choice.type === 'function') out.tool_choice = { type: 'function', name: choice.function.name };
      else if (typeof choice === 'object') untranslatable(`tool_choice ${String(choice.type)}`);
      else malformed('tool_choice', '"auto", "required", "none" or a named function');
    }
    if (given(body.parallel_tool_calls)) out.parallel_tool_calls = body.parallel_tool_calls;
  }
  if (options.codexBackend) {
    out.stream = true;
    out.store = false;
  } else if (body.stream === true) out.stream = true;
  return { body: out, droppedTools: [] };
}

function responsesInput(messages: unknown): { instructions: Text; input: Item[] } {
  const list = arrayAt<Lazy<ChatCompletionMessageParam>>(messages, 'messages');
  const leading: Text[] = [];
  const input: Item[] = [];
  for (let i = 0; i < list.length; i++) {
    const path = `messages[${i}]`;
    const message = objectAt<Lazy<ChatCompletionMessageParam>>(list[i], path);
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = plainText(message.content, `${path}.content`);
        if (input.length === 0) leading.push(text);
        else input.push({ type: 'message', role: 'developer', content: text });
        break;
      }
      case 'user':
        input.push({ type: 'message', role: 'user', content: inputParts(message.content, `${path}.content`) });
        break;
      case 'assistant':
        assistantItems(input, message, path);
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.tool_call_id, output: plainText(message.content, `${path}.content`) });
        break;
      case 'function':
        return untranslatable('functions/function_call (legacy)');
      default:
        return malformed(`${path}.role`, 'a chat message role');
    }
  }
  return { instructions: joinText(leading, '\n\n'), input };
}

function plainText(content: unknown, path: string): Text {
  if (isText(content)) return content;
  const parts = arrayAt<Lazy<ChatCompletionContentPartText>>(content, path);
  return joinText(
    parts.map((part, i) => objectAt<Lazy<ChatCompletionContentPartText>>(part, `${path}[${i}]`).text),
    '\n\n',
  );
}

function inputParts(content: unknown, path: string): Lazy<ResponseInputContent>[] | Text {
  if (isText(content)) return content;
  const parts = arrayAt<Lazy<ChatCompletionContentPart>>(content, path);
  return parts.map((entry, i): Lazy<ResponseInputContent> => {
    const part = objectAt<Lazy<ChatCompletionContentPart>>(entry, `${path}[${i}]`);
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'image_url': {
        const image = objectAt<Lazy<{ url: string; detail?: 'auto' | 'low' | 'high' }>>(part.image_url, `${path}[${i}].image_url`);
        return { type: 'input_image', image_url: image.url, detail: image.detail ?? 'auto' };
      }
      case 'input_audio':
        return untranslatable('audio input');
      case 'file':
        return untranslatable('file input');
      default:
        return untranslatable(`${String((part as { type?: unknown }).type)} part`);
    }
  });
}

type AssistantPart = Lazy<Exclude<ChatCompletionAssistantMessageParam['content'], string | null | undefined>[number]>;
type AssistantCall = Lazy<NonNullable<ChatCompletionAssistantMessageParam['tool_calls']>[number]>;

function assistantItems(input: Item[], message: Lazy<ChatCompletionAssistantMessageParam>, path: string): void {
  if (given(message.function_call)) untranslatable('functions/function_call (legacy)');
  if (given(message.audio)) untranslatable('audio output');
  const content = message.content;
  let text: Text | null = null;
  if (isText(content)) text = content;
  else if (given(content)) {
    const parts = arrayAt<AssistantPart>(content, `${path}.content`);
    text = joinText(
      parts.map((part) =>
        part.type === 'text'
          ? part.text
          : part.type === 'refusal'
            ? part.refusal
            : untranslatable(`${String((part as { type?: unknown }).type)} part`),
      ),
      '',
    );
  }
  if (text !== null && !isEmptyText(text)) input.push({ type: 'message', role: 'assistant', content: text });
  if (!given(message.tool_calls)) return;
  const calls = arrayAt<AssistantCall>(message.tool_calls, `${path}.tool_calls`);
  for (let i = 0; i < calls.length; i++) {
    const call = objectAt<AssistantCall>(calls[i], `${path}.tool_calls[${i}]`);
    if (call.type !== 'function') untranslatable(`${String(call.type)} tool call`);
    input.push({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
}

/** Function tools, not strict (the Responses API would otherwise hold every schema to its strict subset). */
function responsesTools(tools: unknown): Lazy<FunctionTool>[] {
  if (!given(tools)) return [];
  const list = arrayAt<Lazy<ChatCompletionTool>>(tools, 'tools');
  return list.map((entry, i) => {
    const tool = objectAt<Lazy<ChatCompletionTool>>(entry, `tools[${i}]`);
    if (tool.type === 'custom') untranslatable(`custom tool ${textString(tool.custom.name)}`);
    if (tool.type !== 'function') untranslatable(`${String((tool as { type?: unknown }).type)} tool`);
    const out: Lazy<FunctionTool> = {
      type: 'function',
      name: tool.function.name,
      parameters: (tool.function.parameters as Lazy<FunctionTool['parameters']>) ?? { type: 'object', properties: {} },
      strict: false,
    };
    if (given(tool.function.description)) out.description = tool.function.description;
    return out;
  });
}
