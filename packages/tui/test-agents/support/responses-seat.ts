/**
 * A fake OpenAI seat that answers Codex the way the Responses API does:
 * `POST /v1/responses` streamed as the API's typed events (created,
 * in_progress, the output item and its text, completed with usage), or as
 * one response object when not streamed.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Behaviour } from '../../../daemon/test/helpers/fake-upstream.js';

export const RESPONSES_USAGE = {
  input_tokens: 1830,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 1839,
};

/** `answersOn`: the path it answers (ChatGPT's Codex backend has no `/v1`). */
export function responsesSeat(finalText: string, answersOn = '/v1/responses'): Behaviour {
  return (req, res) => {
    const path = req.url.split('?')[0];
    if (req.method !== 'POST' || path !== answersOn) {
      return sendJson(res, 404, {
        error: { message: `Invalid URL (${req.method} ${path})`, type: 'invalid_request_error', param: null, code: null },
      });
    }
    const id = `resp_${randomBytes(24).toString('hex')}`;
    const itemId = `msg_${randomBytes(24).toString('hex')}`;
    const model = String(req.json?.model);
    const base = {
      id,
      object: 'response',
      created_at: Math.floor(Date.now() / 1000),
      status: 'in_progress',
      model,
      output: [] as object[],
      usage: null as object | null,
    };
    const part = { type: 'output_text', text: finalText, annotations: [] };
    const item = { id: itemId, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    const completed = { ...base, status: 'completed', output: [item], usage: RESPONSES_USAGE };
    if (req.json?.stream !== true) return sendJson(res, 200, completed);

    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'x-request-id': `req_${id}` });
    let sequence = 0;
    const event = (type: string, data: object) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
    const at = { item_id: itemId, output_index: 0, content_index: 0 };
    event('response.created', { response: base });
    event('response.in_progress', { response: base });
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    event('response.content_part.added', { ...at, part: { ...part, text: '' } });
    event('response.output_text.delta', { ...at, delta: finalText });
    event('response.output_text.done', { ...at, text: finalText });
    event('response.content_part.done', { ...at, part });
    event('response.output_item.done', { output_index: 0, item });
    event('response.completed', { response: completed });
    res.end();
  };
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
