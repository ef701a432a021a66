import type { ReplyMeta, RefusalKind, WireFormat } from './wire.js';
import { sseFrame } from './wire.js';

const ERRORS: Record<RefusalKind, { type: string; code: string | null }> = {
  auth: { type: 'invalid_request_error', code: 'invalid_api_key' },
  not_found: { type: 'invalid_request_error', code: 'model_not_found' },
  bad_request: { type: 'invalid_request_error', code: null },
};

/** The OpenAI Chat Completions API: /v1/chat/completions, Bearer key, `data:` frames ending in [DONE]. */
export const openaiWire: WireFormat = {
  family: 'openai',
  path: '/v1/chat/completions',

  authProblem(headers, key) {
    const sent = headers.authorization;
    if (sent === undefined) return "You didn't provide an API key.";
    // Never echo what was sent: it may be someone's real key.
    return sent === `Bearer ${key}` ? null : 'Incorrect API key provided.';
  },

  headerProblem() {
    return null;
  },

  errorBody(kind, _status, message) {
    const { type, code } = ERRORS[kind];
    return JSON.stringify({ error: { message, type, param: null, code } });
  },

  json(meta, tokens) {
    return JSON.stringify({
      id: meta.id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: meta.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: tokens.join(''), refusal: null }, logprobs: null, finish_reason: 'stop' },
      ],
      usage: usage(meta, tokens.length),
    });
  },

  streamHead(meta) {
    return sseFrame(chunk(meta, { role: 'assistant', content: '' }, null));
  },

  streamDelta(meta, text) {
    return sseFrame(chunk(meta, { content: text }, null));
  },

  streamTail(meta, outputTokens, body) {
    const options = body.stream_options as { include_usage?: unknown } | undefined;
    const usageFrame =
      options?.include_usage === true ? sseFrame({ ...chunk(meta, null, null), choices: [], usage: usage(meta, outputTokens) }) : '';
    return sseFrame(chunk(meta, {}, 'stop')) + usageFrame + sseFrame('[DONE]');
  },
};

function chunk(meta: ReplyMeta, delta: Record<string, unknown> | null, finish: string | null) {
  return {
    id: meta.id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: meta.model,
    choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
}

function usage(meta: ReplyMeta, outputTokens: number) {
  return { prompt_tokens: meta.promptTokens, completion_tokens: outputTokens, total_tokens: meta.promptTokens + outputTokens };
}
