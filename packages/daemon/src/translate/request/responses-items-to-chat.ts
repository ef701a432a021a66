import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartText,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ResponseCustomToolCall,
  ResponseCustomToolCallOutput,
  ResponseFunctionCallOutputItem,
  ResponseFunctionToolCall,
  ResponseInputItem,
  ResponseOutputMessage,
  EasyInputMessage,
} from 'openai/resources/responses/responses';
import type { Lazy } from '../json/read-json.js';
import { isText, JsonText, joinText, type Text, textString } from '../json/text.js';
import { arrayAt, given, malformed, objectAt, untranslatable } from './cannot-translate.js';
import { exposedName, type ResponsesTools } from './responses-tools-to-chat.js';

type ChatMessage = Lazy<ChatCompletionMessageParam>;
type UserPart = Lazy<ChatCompletionContentPartText> | Lazy<ChatCompletionContentPartImage>;
type Item = Lazy<ResponseInputItem>;
type MessageItem = Lazy<EasyInputMessage> | Lazy<ResponseInputItem.Message> | Lazy<ResponseOutputMessage>;
type OutputPart = Lazy<ResponseFunctionCallOutputItem>;

/** Items of calls run by the provider, and reasoning bound to the account that made it: nothing the other seat can take. */
const DROPPED_ITEMS = new Set([
  'reasoning',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
]);

/**
 * A Responses `input` as chat messages, in order. What the model said and
 * called in a row (assistant messages, function, custom, shell and tool
 * search calls, with reasoning between them dropped) is one assistant
 * message, so that its calls' results follow it as chat requires.
 */
export class ResponsesInput {
  readonly messages: ChatMessage[] = [];
  /** the assistant message still taking calls and text */
  private assistant: Lazy<ChatCompletionAssistantMessageParam> | null = null;

  constructor(private readonly tools: ResponsesTools) {}

  add(input: unknown): void {
    if (isText(input)) {
      this.push({ role: 'user', content: input });
      return;
    }
    const items = arrayAt<Item>(input, 'input');
    for (let i = 0; i < items.length; i++) this.item(objectAt<Item>(items[i], `input[${i}]`), `input[${i}]`);
  }

  private item(item: Item, path: string): void {
    const type = item.type ?? ('role' in item ? 'message' : 'item_reference');
    if (DROPPED_ITEMS.has(type)) return;
    switch (item.type) {
      case undefined:
      case null:
      case 'message':
        if (!('role' in item)) return untranslatable('item_reference item');
        return this.message(item as MessageItem, path);
      case 'function_call': {
        const call = item as Lazy<ResponseFunctionToolCall>;
        return this.call(
          call.call_id,
          exposedName(textString(call.name), call.namespace ? textString(call.namespace) : null),
          call.arguments,
        );
      }
      case 'custom_tool_call': {
        const call = item as Lazy<ResponseCustomToolCall>;
        return this.call(
          call.call_id,
          exposedName(textString(call.name), call.namespace ? textString(call.namespace) : null),
          new JsonText({ input: call.input }),
        );
      }
      case 'local_shell_call':
        return this.call(item.call_id, 'local_shell', new JsonText(item.action));
      case 'tool_search_call':
        if (item.execution === 'server') return;
        return this.call(item.call_id ?? '', 'tool_search', new JsonText(item.arguments ?? {}));
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const output = item as Lazy<ResponseInputItem.FunctionCallOutput> | Lazy<ResponseCustomToolCallOutput>;
        return this.result(output.call_id, output.output, path);
      }
      case 'local_shell_call_output': {
        const output = item as Lazy<ResponseInputItem.LocalShellCallOutput> & { call_id?: Text };
        return this.result(output.call_id ?? output.id, output.output, path);
      }
      case 'tool_search_output':
        if (item.execution === 'server') return;
        this.tools.add(item.tools, `${path}.tools`);
        return this.result(item.call_id ?? '', new JsonText(item.tools), path);
      case 'additional_tools':
        this.tools.add(item.tools, `${path}.tools`);
        return;
      default:
        return untranslatable(`${type} item`);
    }
  }

  private message(item: MessageItem, path: string): void {
    const content = item.content;
    switch (item.role) {
      case 'user':
        this.push({ role: 'user', content: isText(content) ? content : userParts(content, `${path}.content`) });
        return;
      case 'system':
      case 'developer':
        this.push({ role: 'system', content: isText(content) ? content : joinText(textParts(content, `${path}.content`), '\n\n') });
        return;
      case 'assistant': {
        const text = isText(content) ? content : joinText(textParts(content, `${path}.content`), '');
        const assistant = this.assistantMessage();
        assistant.content =
          assistant.content === null || assistant.content === undefined ? text : joinText([assistant.content as Text, text], '');
        return;
      }
      default:
        return malformed(`${path}.role`, '"user", "assistant", "system" or "developer"');
    }
  }

  private call(id: Text, name: string, args: Text): void {
    const assistant = this.assistantMessage();
    const call: Lazy<ChatCompletionMessageFunctionToolCall> = { id, type: 'function', function: { name, arguments: args } };
    if (assistant.tool_calls === undefined) assistant.tool_calls = [call];
    else assistant.tool_calls.push(call);
  }

  /** A call's output as a tool message: text parts joined by newlines, images in a user message after it. */
  private result(callId: Text, output: unknown, path: string): void {
    if (isText(output)) {
      this.push({ role: 'tool', tool_call_id: callId, content: output });
      return;
    }
    const parts = arrayAt<OutputPart>(output, `${path}.output`);
    const texts: Text[] = [];
    const images: UserPart[] = [];
    for (const part of userParts(parts, `${path}.output`)) {
      if (part.type === 'text') texts.push(part.text);
      else images.push(part);
    }
    this.push({ role: 'tool', tool_call_id: callId, content: joinText(texts, '\n') });
    if (images.length > 0) this.push({ role: 'user', content: images });
  }

  private assistantMessage(): Lazy<ChatCompletionAssistantMessageParam> {
    if (this.assistant === null) {
      this.assistant = { role: 'assistant', content: null };
      this.messages.push(this.assistant);
    }
    return this.assistant;
  }

  private push(message: ChatMessage): void {
    this.assistant = null;
    this.messages.push(message);
  }
}

type InputPart = Lazy<ResponseFunctionCallOutputItem> | Lazy<ResponseOutputMessage['content'][number]>;

/** input_text and input_image parts as chat parts; a file cannot be carried. */
function userParts(content: unknown, path: string): UserPart[] {
  const parts = arrayAt<InputPart>(content, path);
  return parts.map((entry, i): UserPart => {
    const part = objectAt<InputPart>(entry, `${path}[${i}]`);
    switch (part.type) {
      case 'input_text':
      case 'output_text':
        return { type: 'text', text: part.text };
      case 'input_image': {
        if (!given(part.image_url)) return untranslatable('input_image by file_id');
        const image: Lazy<ChatCompletionContentPartImage> = { type: 'image_url', image_url: { url: part.image_url } };
        if (part.detail === 'low' || part.detail === 'high') image.image_url.detail = part.detail;
        return image;
      }
      case 'input_file':
        return untranslatable('input_file part');
      default:
        return untranslatable(`${String(part.type)} part`);
    }
  });
}

/** The texts of a message's parts (a refusal is text too). */
function textParts(content: unknown, path: string): Text[] {
  const parts = arrayAt<InputPart>(content, path);
  return parts.map((entry, i) => {
    const part = objectAt<InputPart>(entry, `${path}[${i}]`);
    if (part.type === 'input_text' || part.type === 'output_text') return part.text;
    if (part.type === 'refusal') return part.refusal;
    return untranslatable(`${String(part.type)} part`);
  });
}
