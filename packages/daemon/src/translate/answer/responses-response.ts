import type { Response, ResponseOutputMessage, ResponseOutputText } from 'openai/resources/responses/responses';
import type { StopReason, TokenUsage } from './answer.js';
import type { CallItem } from './responses-call-items.js';
import { type ResponsesAnswerUsage, toResponsesUsage } from './usage.js';

export type MessageItem = Pick<ResponseOutputMessage, 'type' | 'id' | 'role' | 'status'> & { content: OutputText[] };
export type OutputText = Pick<ResponseOutputText, 'type' | 'text' | 'annotations'>;
export type OutputItem = MessageItem | CallItem;

/** The response object of the Responses API, as a translated answer fills it. */
export type WireResponse = Omit<Response, 'output_text' | 'output' | 'usage'> & {
  output: OutputItem[];
  usage: ResponsesAnswerUsage | null;
};

/** Where an answer stands: still streaming, ended (completed, or incomplete for length or a refusal), or failed. */
export type ResponseEnd = { stop: StopReason; usage: TokenUsage | null } | { failed: string } | null;

export function responseObject(id: string, created: number, model: string, output: OutputItem[], end: ResponseEnd): WireResponse {
  const response: WireResponse = {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: null,
    model,
    output,
    parallel_tool_calls: true,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    usage: null,
  };
  if (end === null) return response;
  if ('failed' in end) {
    response.status = 'failed';
    response.error = { code: 'server_error', message: end.failed };
    return response;
  }
  response.usage = toResponsesUsage(end.usage);
  if (end.stop === 'length' || end.stop === 'refusal') {
    response.status = 'incomplete';
    response.incomplete_details = { reason: end.stop === 'length' ? 'max_output_tokens' : 'content_filter' };
  } else response.status = 'completed';
  return response;
}

export function messageItem(id: string, text: string, status: MessageItem['status']): MessageItem {
  return { type: 'message', id, role: 'assistant', status, content: text === '' && status === 'in_progress' ? [] : [outputText(text)] };
}

export function outputText(text: string): OutputText {
  return { type: 'output_text', text, annotations: [] };
}
