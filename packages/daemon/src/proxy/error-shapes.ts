import type { Family } from '@routeplane/shared';

/**
 * The errors the daemon itself answers, in each family's shape (OpenAI
 * `{error: {message, type, code}}`, Anthropic `{type: "error", error:
 * {type, message}}`). One table, so the status, the OpenAI
 * `type`/`code` and the Anthropic `type` of a kind never drift apart.
 * Messages are built by callers from names only (routes, seats, models,
 * outcomes) — never from header or key values.
 */
export type DaemonErrorKind =
  | 'bad_request'
  | 'no_family_target'
  | 'unknown_model'
  | 'unknown_path'
  | 'method_not_allowed'
  | 'unauthorized'
  | 'forbidden'
  | 'unavailable'
  | 'too_large'
  | 'unsupported_media_type'
  | 'header_too_large'
  | 'bad_gateway'
  | 'gateway_timeout'
  | 'stream_error'
  | 'internal';

interface KindShape {
  status: number;
  openaiType: string;
  openaiCode: string;
  anthropicType: string;
}

const SHAPES: Record<DaemonErrorKind, KindShape> = {
  bad_request: { status: 400, openaiType: 'invalid_request_error', openaiCode: 'invalid_body', anthropicType: 'invalid_request_error' },
  no_family_target: {
    status: 400,
    openaiType: 'invalid_request_error',
    openaiCode: 'no_target_for_protocol',
    anthropicType: 'invalid_request_error',
  },
  unknown_model: { status: 404, openaiType: 'invalid_request_error', openaiCode: 'model_not_found', anthropicType: 'not_found_error' },
  unknown_path: { status: 404, openaiType: 'invalid_request_error', openaiCode: 'unknown_path', anthropicType: 'not_found_error' },
  method_not_allowed: {
    status: 405,
    openaiType: 'invalid_request_error',
    openaiCode: 'method_not_allowed',
    anthropicType: 'invalid_request_error',
  },
  unauthorized: { status: 401, openaiType: 'invalid_request_error', openaiCode: 'invalid_api_key', anthropicType: 'authentication_error' },
  forbidden: { status: 403, openaiType: 'invalid_request_error', openaiCode: 'route_not_allowed', anthropicType: 'permission_error' },
  unavailable: { status: 503, openaiType: 'upstream_error', openaiCode: 'no_routable_target', anthropicType: 'api_error' },
  too_large: { status: 413, openaiType: 'invalid_request_error', openaiCode: 'request_too_large', anthropicType: 'request_too_large' },
  unsupported_media_type: {
    status: 415,
    openaiType: 'invalid_request_error',
    openaiCode: 'unsupported_media_type',
    anthropicType: 'invalid_request_error',
  },
  header_too_large: {
    status: 431,
    openaiType: 'invalid_request_error',
    openaiCode: 'header_too_large',
    anthropicType: 'invalid_request_error',
  },
  bad_gateway: { status: 502, openaiType: 'upstream_error', openaiCode: 'bad_gateway', anthropicType: 'api_error' },
  gateway_timeout: { status: 504, openaiType: 'upstream_error', openaiCode: 'gateway_timeout', anthropicType: 'timeout_error' },
  stream_error: { status: 502, openaiType: 'upstream_error', openaiCode: 'stream_error', anthropicType: 'api_error' },
  internal: { status: 500, openaiType: 'server_error', openaiCode: 'internal_error', anthropicType: 'api_error' },
};

export function errorStatus(kind: DaemonErrorKind): number {
  return SHAPES[kind].status;
}

/** The error object without its envelope (also what goes into a mid-stream error event). */
function errorObject(family: Family, kind: DaemonErrorKind, message: string): object {
  const shape = SHAPES[kind];
  return family === 'openai' ? { message, type: shape.openaiType, code: shape.openaiCode } : { type: shape.anthropicType, message };
}

/** OpenAI `{"error": {message, type, code}}`; Anthropic `{"type": "error", "error": {type, message}}`. */
export function errorBody(family: Family, kind: DaemonErrorKind, message: string): string {
  const error = errorObject(family, kind, message);
  return JSON.stringify(family === 'openai' ? { error } : { type: 'error', error });
}

/**
 * The SSE event that ends a stream which broke after bytes reached the agent:
 * OpenAI `data: {"error": {…}}`, Anthropic `event: error` + the Anthropic error object.
 */
export function streamErrorEvent(family: Family, message: string): string {
  const body = errorBody(family, 'stream_error', message);
  return family === 'openai' ? `data: ${body}\n\n` : `event: error\ndata: ${body}\n\n`;
}
