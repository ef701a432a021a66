import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPartImage,
  ChatCompletionContentPartText,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { isText, JsonText, joinText, type Text } from '../json/text.js';
import { arrayAt, isObject, malformed, objectAt, untranslatable } from './cannot-translate.js';

type UserPart = Lazy<ChatCompletionContentPartText> | Lazy<ChatCompletionContentPartImage>;
type ToolResultPart = Lazy<Exclude<ToolResultBlockParam['content'], string | undefined>[number]>;
type ChatMessage = Lazy<ChatCompletionMessageParam>;

/** The text of a `system` (a string or text blocks), blocks joined with a blank line. */
export function systemText(system: unknown, path: string): Text {
  if (isText(system)) return system;
  const blocks = arrayAt<Lazy<TextBlockParam>>(system, path);
  const texts: Text[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = objectAt<Lazy<TextBlockParam>>(blocks[i], `${path}[${i}]`);
    if (block.type !== 'text') untranslatable(`${String(block.type)} block in system`);
    texts.push(block.text);
  }
  return joinText(texts, '\n\n');
}

/** Appends the chat messages of one Messages API entry (user, assistant or a mid-conversation system entry). */
export function pushTurn(out: ChatMessage[], entry: unknown, path: string): void {
  const turn = objectAt<Lazy<MessageParam>>(entry, path);
  switch (turn.role) {
    case 'system':
      out.push({ role: 'system', content: systemText(turn.content, `${path}.content`) });
      return;
    case 'user':
      pushUserTurn(out, turn.content, `${path}.content`);
      return;
    case 'assistant':
      out.push(assistantTurn(turn.content, `${path}.content`));
      return;
    default:
      return malformed(`${path}.role`, '"user", "assistant" or "system"');
  }
}

/**
 * A user turn: its tool results first (one `tool` message each), then the
 * images those results held (chat tool messages carry only text), then the
 * turn's own text and images.
 */
function pushUserTurn(out: ChatMessage[], content: unknown, path: string): void {
  if (isText(content)) {
    out.push({ role: 'user', content });
    return;
  }
  const blocks = arrayAt<Lazy<ContentBlockParam>>(content, path);
  const parts: UserPart[] = [];
  let resultImages: UserPart[] | null = null;
  for (let i = 0; i < blocks.length; i++) {
    const block = objectAt<Lazy<ContentBlockParam>>(blocks[i], `${path}[${i}]`);
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text });
        break;
      case 'image':
        parts.push(imagePart(block, 'image block'));
        break;
      case 'tool_result':
        resultImages = pushToolResult(out, block, `${path}[${i}]`, resultImages);
        break;
      case 'thinking':
      case 'redacted_thinking':
        break;
      default:
        untranslatable(blockName(block));
    }
  }
  if (resultImages !== null) out.push({ role: 'user', content: resultImages });
  if (parts.length === 1 && parts[0]!.type === 'text') out.push({ role: 'user', content: parts[0]!.text });
  else if (parts.length > 0) out.push({ role: 'user', content: parts });
}

/** One `tool` message: the result's text parts joined by newlines, `[error] ` in front when it failed. */
function pushToolResult(
  out: ChatMessage[],
  result: Lazy<ToolResultBlockParam>,
  path: string,
  images: UserPart[] | null,
): UserPart[] | null {
  let text: Text = '';
  let collected = images;
  const content = result.content;
  if (isText(content)) text = content;
  else if (content !== undefined && content !== null) {
    const parts = arrayAt<ToolResultPart>(content, `${path}.content`);
    const texts: Text[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = objectAt<ToolResultPart>(parts[i], `${path}.content[${i}]`);
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'image') {
        collected ??= [];
        collected.push(imagePart(part, 'image block in a tool result'));
      } else untranslatable(`${blockName(part)} in a tool result`);
    }
    text = joinText(texts, '\n');
  }
  if (result.is_error === true) text = joinText(['[error] ', text], '');
  out.push({ role: 'tool', tool_call_id: result.tool_use_id, content: text });
  return collected;
}

function assistantTurn(content: unknown, path: string): Lazy<ChatCompletionAssistantMessageParam> {
  if (isText(content)) return { role: 'assistant', content };
  const blocks = arrayAt<Lazy<ContentBlockParam>>(content, path);
  const texts: Text[] = [];
  let calls: Lazy<ChatCompletionMessageFunctionToolCall>[] | null = null;
  for (let i = 0; i < blocks.length; i++) {
    const block = objectAt<Lazy<ContentBlockParam>>(blocks[i], `${path}[${i}]`);
    switch (block.type) {
      case 'text':
        texts.push(block.text);
        break;
      case 'tool_use':
        calls ??= [];
        calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: new JsonText(block.input ?? {}) } });
        break;
      case 'thinking':
      case 'redacted_thinking':
        break;
      default:
        untranslatable(blockName(block));
    }
  }
  const text = joinText(texts, '');
  if (calls === null) return { role: 'assistant', content: text };
  return { role: 'assistant', content: texts.length === 0 ? null : text, tool_calls: calls };
}

function imagePart(block: Lazy<ImageBlockParam>, what: string): Lazy<ChatCompletionContentPartImage> {
  const source = objectAt<Lazy<ImageBlockParam['source']>>(block.source, what);
  switch (source.type) {
    case 'base64':
      return { type: 'image_url', image_url: { url: joinText(['data:', source.media_type, ';base64,', source.data], '') } };
    case 'url':
      return { type: 'image_url', image_url: { url: source.url } };
    default:
      return untranslatable(`${what} with a ${String(source.type)} source`);
  }
}

/** `document block`, `search_result block`: the name an untranslatable detail gives a block. */
function blockName(block: { type?: unknown }): string {
  return isObject(block) && block.type !== undefined ? `${String(block.type)} block` : 'block without a type';
}
