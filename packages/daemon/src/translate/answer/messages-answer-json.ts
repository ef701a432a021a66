import type { Message, TextBlock, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { type Answer, type BadAnswer, badAnswer, idSafe, type ToolCall } from './answer.js';
import { fromMessagesStop, toMessagesStop } from './stop-reasons.js';
import { notAnObject, toolInput } from './tool-input.js';
import { fromMessagesUsage, type MessagesAnswerUsage, toMessagesUsage } from './usage.js';

/** A whole Messages API `message`: text blocks joined, tool_use blocks as calls, thinking dropped. */
export function readMessagesAnswer(body: unknown): Answer | BadAnswer {
  const message = body as Partial<Message> | null;
  if (message === null || typeof message !== 'object' || !Array.isArray(message.content))
    return badAnswer('the upstream answer is not a message');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        text += block.text;
        break;
      case 'tool_use':
        toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
        break;
      case 'thinking':
      case 'redacted_thinking':
        break;
      default:
        return badAnswer(`the upstream answered with a ${block.type} block`);
    }
  }
  return {
    id: typeof message.id === 'string' ? message.id : '',
    model: typeof message.model === 'string' ? message.model : '',
    text,
    toolCalls,
    stop: fromMessagesStop(message.stop_reason),
    usage: message.usage ? fromMessagesUsage(message.usage) : null,
  };
}

type WireMessage = Pick<Message, 'id' | 'type' | 'role' | 'model' | 'stop_reason' | 'stop_sequence'> & {
  content: Array<Pick<TextBlock, 'type' | 'text'> | Pick<ToolUseBlock, 'type' | 'id' | 'name' | 'input'>>;
  usage: MessagesAnswerUsage;
};

/** A `message` for an Anthropic agent: a text block when there is text, then a tool_use block per call. */
export function writeMessagesAnswer(answer: Answer): WireMessage | BadAnswer {
  const content: WireMessage['content'] = [];
  if (answer.text !== '') content.push({ type: 'text', text: answer.text });
  for (const call of answer.toolCalls) {
    const input = toolInput(call.arguments);
    if (input === null) return badAnswer(notAnObject(call.name));
    content.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  return {
    id: `msg_${idSafe(answer.id)}`,
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content,
    stop_reason: toMessagesStop(answer.stop),
    stop_sequence: null,
    usage: toMessagesUsage(answer.usage),
  };
}
