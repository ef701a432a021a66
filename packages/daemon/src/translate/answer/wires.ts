import type { AnswerPlan, Wire } from '../wire.js';
import type { Answer, BadAnswer } from './answer.js';
import type { AnswerEncoder } from './answer-encoder.js';
import type { AnswerWriter } from './answer-assembler.js';
import { readChatAnswer, writeChatAnswer } from './chat-answer-json.js';
import { ChatStreamDecoder } from './chat-stream-decoder.js';
import { ChatStreamEncoder } from './chat-stream-encoder.js';
import { readMessagesAnswer, writeMessagesAnswer } from './messages-answer-json.js';
import { MessagesStreamDecoder } from './messages-stream-decoder.js';
import { MessagesStreamEncoder } from './messages-stream-encoder.js';
import { readResponsesAnswer, writeResponsesAnswer } from './responses-answer-json.js';
import { ResponsesStreamDecoder } from './responses-stream-decoder.js';
import { ResponsesStreamEncoder } from './responses-stream-encoder.js';
import type { StreamDecoder } from './stream-decoder.js';
import { agentUsage } from './usage.js';

/** The reader of a whole answer in the upstream's wire. */
export function answerReader(wire: Wire): (body: unknown) => Answer | BadAnswer {
  switch (wire) {
    case 'messages':
      return readMessagesAnswer;
    case 'chat':
      return readChatAnswer;
    case 'responses':
      return readResponsesAnswer;
  }
}

/** The writer of a whole answer in the agent's wire. */
export function answerWriter(plan: AnswerPlan, created: number): AnswerWriter {
  switch (plan.agentWire) {
    case 'messages':
      return (answer) => {
        const message = writeMessagesAnswer(answer);
        return 'ok' in message ? message : { text: JSON.stringify(message), usage: agentUsage('anthropic', answer.usage) };
      };
    case 'chat':
      return (answer) => ({ text: JSON.stringify(writeChatAnswer(answer, created)), usage: agentUsage('openai', answer.usage) });
    case 'responses':
      return (answer) => {
        const response = writeResponsesAnswer(answer, created, plan.declaredTools);
        return 'ok' in response ? response : { text: JSON.stringify(response), usage: agentUsage('openai', answer.usage) };
      };
  }
}

export function streamDecoder(wire: Wire): StreamDecoder {
  switch (wire) {
    case 'messages':
      return new MessagesStreamDecoder();
    case 'chat':
      return new ChatStreamDecoder();
    case 'responses':
      return new ResponsesStreamDecoder();
  }
}

export function streamEncoder(plan: AnswerPlan, created: number): AnswerEncoder {
  switch (plan.agentWire) {
    case 'messages':
      return new MessagesStreamEncoder();
    case 'chat':
      return new ChatStreamEncoder(created, plan.includeUsage);
    case 'responses':
      return new ResponsesStreamEncoder(created, plan.declaredTools);
  }
}
