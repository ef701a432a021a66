import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { type Lazy, readJson } from './json/read-json.js';
import { writeJson } from './json/write-json.js';
import { CannotTranslate, isObject } from './request/cannot-translate.js';
import { chatToMessages } from './request/chat-to-messages.js';
import { chatToResponses } from './request/chat-to-responses.js';
import { type MappedRequest, type MessagesRequest, messagesToChat } from './request/messages-to-chat.js';
import { type ResponsesRequest, responsesToChat } from './request/responses-to-chat.js';
import { messagesToResponses, responsesToMessages } from './request/through-chat.js';
import type { AnswerPlan, DeclaredTool, TranslationTarget, Wire } from './wire.js';

export type RequestTranslation =
  | {
      ok: true;
      /** the translated body, to send instead of the agent's */
      body: Buffer;
      /** declared tools the target's wire has no counterpart for, each by name (else type), in declared order */
      droppedTools: string[];
      /** the upstream is asked for a stream */
      upstreamStream: boolean;
      /** what the answer translation needs: keep it for the attempt */
      plan: AnswerPlan;
    }
  | {
      ok: false;
      /** `untranslatable`: skip the target (`skipped: untranslatable`); `invalid`: the body is not a valid request of the agent's wire */
      reason: 'untranslatable' | 'invalid';
      /** the first part that cannot be carried, or what is malformed and where */
      detail: string;
    };

/**
 * The agent's body, rewritten for a target of another wire. The body is
 * read once, lazily (its long strings are never decoded), and the
 * translated body is written once, copying those strings' bytes.
 */
export function translateRequest(agentWire: Wire, upstreamWire: Wire, agentBody: Buffer, target: TranslationTarget): RequestTranslation {
  const read = readJson(agentBody);
  if (!read.ok) return { ok: false, reason: 'invalid', detail: `body: expected ${read.expected} at byte ${read.at}` };
  const body = read.value;
  if (!isObject(body)) return { ok: false, reason: 'invalid', detail: 'body: expected a JSON object' };
  try {
    const mapped = mapRequest(agentWire, upstreamWire, body, target);
    if (mapped === null) return { ok: false, reason: 'untranslatable', detail: `a ${agentWire} request for a ${upstreamWire} seat` };
    const agentStream = body.stream === true;
    // ChatGPT's Codex backend answers only in a stream: an agent that did not stream gets it assembled
    const upstreamStream = agentStream || (upstreamWire === 'responses' && target.codexBackend);
    const plan: AnswerPlan = {
      agentWire,
      upstreamWire,
      agentStream,
      upstreamStream,
      includeUsage: agentWire === 'chat' && isObject(body.stream_options) && body.stream_options.include_usage === true,
      declaredTools: mapped.declaredTools ?? null,
    };
    return { ok: true, body: writeJson(mapped.body), droppedTools: mapped.droppedTools, upstreamStream, plan };
  } catch (err) {
    if (err instanceof CannotTranslate) return { ok: false, reason: err.reason, detail: err.detail };
    throw err;
  }
}

type Mapped = MappedRequest<object> & { declaredTools?: Map<string, DeclaredTool> };

function mapRequest(agentWire: Wire, upstreamWire: Wire, body: Record<string, unknown>, target: TranslationTarget): Mapped | null {
  switch (`${agentWire}>${upstreamWire}`) {
    case 'messages>chat':
      return messagesToChat(body as unknown as MessagesRequest, target);
    case 'chat>messages':
      return chatToMessages(body as unknown as Lazy<ChatCompletionCreateParamsBase>, target);
    case 'responses>chat':
      return responsesToChat(body as unknown as ResponsesRequest, target);
    case 'responses>messages':
      return responsesToMessages(body as unknown as ResponsesRequest, target);
    case 'chat>responses':
      return chatToResponses(body as unknown as Lazy<ChatCompletionCreateParamsBase>, target);
    case 'messages>responses':
      return messagesToResponses(body as unknown as MessagesRequest, target);
    default:
      return null;
  }
}
