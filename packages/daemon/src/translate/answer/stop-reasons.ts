import type { StopReason as MessagesStopReason } from '@anthropic-ai/sdk/resources/messages';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { StopReason } from './answer.js';

type FinishReason = ChatCompletion.Choice['finish_reason'];

/** A Messages API `stop_reason` (null or unknown: the turn ended). */
export function fromMessagesStop(reason: MessagesStopReason | string | null | undefined): StopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'refusal';
    default:
      // end_turn, stop_sequence, pause_turn
      return 'stop';
  }
}

/** A chat `finish_reason` (anything unknown: the turn ended). */
export function fromChatFinish(reason: FinishReason | string | null | undefined): StopReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'refusal';
    default:
      return 'stop';
  }
}

export function toMessagesStop(stop: StopReason): MessagesStopReason {
  switch (stop) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'refusal':
      return 'refusal';
  }
}

export function toChatFinish(stop: StopReason): FinishReason {
  switch (stop) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
  }
}
