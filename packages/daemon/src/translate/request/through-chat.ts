import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { Lazy } from '../json/read-json.js';
import type { TranslationTarget } from '../wire.js';
import { given, untranslatable } from './cannot-translate.js';
import { chatToMessages } from './chat-to-messages.js';
import { chatToResponses } from './chat-to-responses.js';
import { type MappedRequest, type MessagesRequest, messagesToChat } from './messages-to-chat.js';
import { type ResponsesMapped, type ResponsesRequest, responsesToChat } from './responses-to-chat.js';

/**
 * The pairs that meet the Messages wire and the Responses wire go through the
 * chat mapping, so both follow the same rules where the parts meet. The
 * chat form in between shares the agent's strings; only the last one is
 * written out.
 */

/** Codex on a Claude seat. A structured-output format has no Messages counterpart. */
export function responsesToMessages(body: ResponsesRequest, target: TranslationTarget): ResponsesMapped<MessagesRequest> {
  const format = body.text?.format;
  if (given(format) && format.type !== 'text') untranslatable(`text.format ${format.type}`);
  const chat = responsesToChat(body, {
    model: target.model,
    maxOutputTokens: target.maxOutputTokens,
    maxTokensField: 'max_completion_tokens',
  });
  return { body: chatToMessages(chat.body, target).body, droppedTools: chat.droppedTools, declaredTools: chat.declaredTools };
}

/** An Anthropic agent on a Responses-only seat. The Responses API has no stop sequences. */
export function messagesToResponses(body: MessagesRequest, target: TranslationTarget): MappedRequest<Lazy<ResponseCreateParamsBase>> {
  if (given(body.stop_sequences) && body.stop_sequences.length > 0) untranslatable('stop_sequences');
  const chat = messagesToChat(body, {
    model: target.model,
    maxOutputTokens: target.maxOutputTokens,
    maxTokensField: 'max_completion_tokens',
  });
  return { body: chatToResponses(chat.body, target).body, droppedTools: chat.droppedTools };
}
