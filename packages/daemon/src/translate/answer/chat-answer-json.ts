import type { ChatCompletion, ChatCompletionMessage, ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { type Answer, type BadAnswer, badAnswer, type ToolCall } from './answer.js';
import { fromChatFinish, toChatFinish } from './stop-reasons.js';
import { type ChatAnswerUsage, fromChatUsage, toChatUsage } from './usage.js';

/** Some servers (DeepSeek, vLLM, OpenRouter) add the model's reasoning to the message: no agent wire here carries it back. */
type WireMessage = ChatCompletionMessage & { reasoning_content?: unknown; reasoning?: unknown };

/** A whole `chat.completion`: its first choice's text (or refusal) and function tool calls. */
export function readChatAnswer(body: unknown): Answer | BadAnswer {
  const completion = body as Partial<ChatCompletion> | null;
  if (completion === null || typeof completion !== 'object') return badAnswer('the upstream answer is not a JSON object');
  const choice = Array.isArray(completion.choices) ? completion.choices[0] : undefined;
  if (choice === undefined || choice.message === null || typeof choice.message !== 'object')
    return badAnswer('the upstream answer has no choice');
  const message = choice.message as WireMessage;
  const toolCalls: ToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (call.type !== 'function') return badAnswer(`the upstream answered with a ${String(call.type)} tool call`);
    toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' });
  }
  return {
    id: typeof completion.id === 'string' ? completion.id : '',
    model: typeof completion.model === 'string' ? completion.model : '',
    text: message.content ?? message.refusal ?? '',
    toolCalls,
    stop: fromChatFinish(choice.finish_reason),
    usage: completion.usage ? fromChatUsage(completion.usage) : null,
  };
}

type WireCompletion = Omit<ChatCompletion, 'choices' | 'usage'> & {
  choices: Array<
    Pick<ChatCompletion.Choice, 'index' | 'finish_reason' | 'logprobs'> & {
      message: Pick<ChatCompletionMessage, 'role' | 'content' | 'refusal' | 'tool_calls'>;
    }
  >;
  usage: ChatAnswerUsage;
};

/** A `chat.completion` for an OpenAI agent: the text joined (null when none), a function tool call per call. */
export function writeChatAnswer(answer: Answer, created: number): WireCompletion {
  const message: WireCompletion['choices'][number]['message'] = {
    role: 'assistant',
    content: answer.text === '' ? null : answer.text,
    refusal: null,
  };
  if (answer.toolCalls.length > 0) {
    message.tool_calls = answer.toolCalls.map(
      (call): ChatCompletionMessageFunctionToolCall => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      }),
    );
  }
  return {
    id: `chatcmpl-${answer.id}`,
    object: 'chat.completion',
    created,
    model: answer.model,
    choices: [{ index: 0, message, finish_reason: toChatFinish(answer.stop), logprobs: null }],
    usage: toChatUsage(answer.usage),
  };
}
