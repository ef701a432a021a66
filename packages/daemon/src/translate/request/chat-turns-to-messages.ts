import type {
  Base64ImageSource,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Lazy } from '../json/read-json.js';
import { dataUrlParts, isEmptyText, isText, joinText, type Text, textString } from '../json/text.js';
import { arrayAt, given, isObject, malformed, objectAt, untranslatable } from './cannot-translate.js';

type Block = Lazy<ContentBlockParam>;

export interface MessagesTurns {
  /** every system and developer message's text, in order, joined with a blank line */
  system: Text | null;
  messages: Lazy<MessageParam>[];
}

type TurnRole = 'user' | 'assistant';

/**
 * Chat messages as Messages API turns. System and developer messages go to
 * the top-level `system` wherever they stood; tool results go into a user
 * turn; consecutive entries that land in the same role share one turn
 * (the Messages API alternates roles).
 */
export function messagesTurns(messages: unknown): MessagesTurns {
  const list = arrayAt<unknown>(messages, 'messages');
  const out: Lazy<MessageParam>[] = [];
  const system: Text[] = [];
  let role: TurnRole | null = null;
  let blocks: Block[] = [];
  const add = (turnRole: TurnRole, block: Block): void => {
    if (role !== turnRole) {
      if (role !== null && blocks.length > 0) out.push({ role, content: blocks });
      role = turnRole;
      blocks = [];
    }
    blocks.push(block);
  };
  for (let i = 0; i < list.length; i++) {
    const path = `messages[${i}]`;
    const message = objectAt<Lazy<ChatCompletionMessageParam>>(list[i], path);
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...plainTexts(message.content, `${path}.content`));
        break;
      case 'user':
        for (const block of userBlocks(message.content, `${path}.content`)) add('user', block);
        break;
      case 'assistant':
        for (const block of assistantBlocks(message, path)) add('assistant', block);
        break;
      case 'tool': {
        const result: Lazy<ToolResultBlockParam> = {
          type: 'tool_result',
          tool_use_id: message.tool_call_id,
          content: toolContent(message.content, path),
        };
        add('user', result);
        break;
      }
      case 'function':
        return untranslatable('functions/function_call (legacy)');
      default:
        return malformed(`${path}.role`, 'a chat message role');
    }
  }
  if (role !== null && blocks.length > 0) out.push({ role, content: blocks });
  return { system: system.length === 0 ? null : joinText(system, '\n\n'), messages: out };
}

/** A system or developer message's texts: a string, or text parts (each its own paragraph). */
function plainTexts(content: unknown, path: string): Text[] {
  if (isText(content)) return [content];
  const parts = arrayAt<Lazy<ChatCompletionContentPartText>>(content, path);
  return parts.map((part, i) => objectAt<Lazy<ChatCompletionContentPartText>>(part, `${path}[${i}]`).text);
}

/** Empty text is left out: the Messages API refuses an empty text block, and it says nothing. */
function userBlocks(content: unknown, path: string): Block[] {
  if (isText(content)) return isEmptyText(content) ? [] : [{ type: 'text', text: content }];
  const parts = arrayAt<Lazy<ChatCompletionContentPart>>(content, path);
  const out: Block[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = objectAt<Lazy<ChatCompletionContentPart>>(parts[i], `${path}[${i}]`);
    switch (part.type) {
      case 'text':
        if (!isEmptyText(part.text)) out.push({ type: 'text', text: part.text });
        break;
      case 'image_url':
        out.push(imageBlock(objectAt<{ url: Text }>(part.image_url, `${path}[${i}].image_url`).url));
        break;
      case 'input_audio':
        return untranslatable('audio input');
      case 'file':
        return untranslatable('file input');
      default:
        return untranslatable(`${String((part as { type?: unknown }).type)} part`);
    }
  }
  return out;
}

type AssistantPart = Lazy<Exclude<ChatCompletionAssistantMessageParam['content'], string | null | undefined>[number]>;
type AssistantCall = Lazy<NonNullable<ChatCompletionAssistantMessageParam['tool_calls']>[number]>;

function assistantBlocks(message: Lazy<ChatCompletionAssistantMessageParam>, path: string): Block[] {
  if (given(message.function_call)) untranslatable('functions/function_call (legacy)');
  if (given(message.audio)) untranslatable('audio output');
  const out: Block[] = [];
  const content = message.content;
  if (isText(content)) {
    if (!isEmptyText(content)) out.push({ type: 'text', text: content });
  } else if (given(content)) {
    const parts = arrayAt<AssistantPart>(content, `${path}.content`);
    for (let i = 0; i < parts.length; i++) {
      const part = objectAt<AssistantPart>(parts[i], `${path}.content[${i}]`);
      const text =
        part.type === 'text'
          ? part.text
          : part.type === 'refusal'
            ? part.refusal
            : untranslatable(`${String((part as { type?: unknown }).type)} part`);
      if (!isEmptyText(text)) out.push({ type: 'text', text });
    }
  }
  if (given(message.tool_calls)) {
    const calls = arrayAt<AssistantCall>(message.tool_calls, `${path}.tool_calls`);
    for (let i = 0; i < calls.length; i++) {
      const call = objectAt<AssistantCall>(calls[i], `${path}.tool_calls[${i}]`);
      if (call.type !== 'function') untranslatable(`${String(call.type)} tool call`);
      const fn = objectAt<(typeof call)['function']>(call.function, `${path}.tool_calls[${i}].function`);
      out.push({ type: 'tool_use', id: call.id, name: fn.name, input: argumentsObject(fn.arguments, textString(call.id)) });
    }
  }
  return out;
}

/** A tool call's `arguments` as the object a `tool_use` block needs; empty arguments are an empty object. */
export function argumentsObject(args: unknown, callId: string): Record<string, unknown> {
  const text = isText(args) ? textString(args) : args;
  if (typeof text === 'string' && text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return untranslatable(`tool call ${callId} arguments that are not a JSON object`);
  }
  if (!isObject(parsed)) untranslatable(`tool call ${callId} arguments that are not a JSON object`);
  return parsed;
}

function toolContent(content: unknown, path: string): Text | Lazy<TextBlockParam>[] {
  if (isText(content)) return content;
  const parts = arrayAt<Lazy<ChatCompletionContentPartText>>(content, `${path}.content`);
  return parts.map((part, i) => {
    const p = objectAt<Lazy<ChatCompletionContentPartText>>(part, `${path}.content[${i}]`);
    if (p.type !== 'text') untranslatable(`${String(p.type)} part in a tool message`);
    return { type: 'text', text: p.text };
  });
}

const MEDIA_TYPES: ReadonlySet<string> = new Set<Base64ImageSource['media_type']>(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** A `data:` URL becomes a base64 source (the media type from the URL); any other URL a url source. */
export function imageBlock(url: Text): Lazy<ImageBlockParam> {
  const parts = dataUrlParts(url);
  if (parts === null) return { type: 'image', source: { type: 'url', url } };
  if (!parts.header.endsWith(';base64')) return untranslatable('image data URL without base64');
  const mediaType = parts.header.slice(5, parts.header.indexOf(';'));
  if (!MEDIA_TYPES.has(mediaType)) return untranslatable(`image of type ${mediaType || 'unknown'}`);
  return { type: 'image', source: { type: 'base64', media_type: mediaType as Base64ImageSource['media_type'], data: parts.data } };
}
