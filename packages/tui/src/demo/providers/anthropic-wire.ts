import type { ReplyMeta, RefusalKind, WireFormat } from './wire.js';
import { sseFrame } from './wire.js';

const ERROR_TYPES: Record<RefusalKind, string> = {
  auth: 'authentication_error',
  not_found: 'not_found_error',
  bad_request: 'invalid_request_error',
};

/** The Anthropic Messages API: /v1/messages, `x-api-key`, named SSE events. */
export const anthropicWire: WireFormat = {
  family: 'anthropic',
  path: '/v1/messages',

  authProblem(headers, key) {
    // The API takes `x-api-key` or a Bearer token (newer SDKs send the latter);
    // every credential present must be ours, so a leaked agent key shows as 401.
    const apiKey = headers['x-api-key'];
    const bearer = headers.authorization;
    if (apiKey === undefined && bearer === undefined) return 'x-api-key header is required';
    // Never echo what was sent: it may be someone's real key.
    if (apiKey !== undefined && apiKey !== key) return 'invalid x-api-key';
    if (bearer !== undefined && bearer !== `Bearer ${key}`) return 'invalid bearer token';
    return null;
  },

  headerProblem(headers) {
    return headers['anthropic-version'] ? null : 'anthropic-version: header is required';
  },

  errorBody(kind, _status, message) {
    return JSON.stringify({ type: 'error', error: { type: ERROR_TYPES[kind], message } });
  },

  json(meta, tokens) {
    return JSON.stringify({
      ...messageShell(meta),
      content: [{ type: 'text', text: tokens.join('') }],
      stop_reason: 'end_turn',
      usage: { input_tokens: meta.promptTokens, output_tokens: tokens.length },
    });
  },

  streamHead(meta) {
    return (
      sseFrame(
        {
          type: 'message_start',
          message: { ...messageShell(meta), content: [], stop_reason: null, usage: { input_tokens: meta.promptTokens, output_tokens: 1 } },
        },
        'message_start',
      ) +
      sseFrame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
      sseFrame({ type: 'ping' }, 'ping')
    );
  },

  streamDelta(_meta, text) {
    return sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta');
  },

  streamTail(_meta, outputTokens) {
    return (
      sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
      sseFrame(
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: outputTokens } },
        'message_delta',
      ) +
      sseFrame({ type: 'message_stop' }, 'message_stop')
    );
  },
};

function messageShell(meta: ReplyMeta) {
  return { id: meta.id, type: 'message', role: 'assistant', model: meta.model, stop_sequence: null };
}
