import type { Response } from 'openai/resources/responses/responses';
import type { DeclaredTool } from '../wire.js';
import { type Answer, type BadAnswer, badAnswer, idSafe, type StopReason, type ToolCall } from './answer.js';
import { callItem, callItemId } from './responses-call-items.js';
import { messageItem, type OutputItem, responseObject, type WireResponse } from './responses-response.js';
import { fromResponsesUsage } from './usage.js';

/** A whole Responses API `response`: its message text, its function calls; reasoning dropped. */
export function readResponsesAnswer(body: unknown): Answer | BadAnswer {
  const response = body as Partial<Response> | null;
  if (response === null || typeof response !== 'object' || !Array.isArray(response.output))
    return badAnswer('the upstream answer is not a response');
  if (response.status === 'failed') return badAnswer(`the upstream response failed: ${response.error?.message ?? 'no reason given'}`);
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const item of response.output) {
    switch (item.type) {
      case 'message':
        for (const part of item.content) text += part.type === 'output_text' ? part.text : part.refusal;
        break;
      case 'function_call':
        toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
        break;
      case 'reasoning':
        break;
      default:
        return badAnswer(`the upstream answered with a ${item.type} item`);
    }
  }
  const reason = response.incomplete_details?.reason;
  const stop: StopReason =
    response.status === 'incomplete' ? (reason === 'content_filter' ? 'refusal' : 'length') : toolCalls.length > 0 ? 'tool_calls' : 'stop';
  return {
    id: typeof response.id === 'string' ? response.id : '',
    model: typeof response.model === 'string' ? response.model : '',
    text,
    toolCalls,
    stop,
    usage: response.usage ? fromResponsesUsage(response.usage) : null,
  };
}

/** A `response` for a Responses agent: a message item when there is text, then an item per call, as the agent declared the tool. */
export function writeResponsesAnswer(
  answer: Answer,
  created: number,
  declaredTools: ReadonlyMap<string, DeclaredTool> | null,
): WireResponse | BadAnswer {
  const base = idSafe(answer.id);
  const output: OutputItem[] = [];
  if (answer.text !== '') output.push(messageItem(`msg_${base}_0`, answer.text, 'completed'));
  for (const call of answer.toolCalls) {
    const declared = declaredTools?.get(call.name);
    const item = callItem(declared, callItemId(declared, `${base}_${output.length}`), call, 'completed');
    if ('ok' in item) return item;
    output.push(item);
  }
  return responseObject(`resp_${base}`, created, answer.model, output, { stop: answer.stop, usage: answer.usage });
}
