import type { Wire } from './wire.js';

interface UpstreamError {
  message: string;
  /** the upstream's own type or code (Anthropic's `error.type`, OpenAI's `code`, else its `type`) */
  kind: string | null;
}

/** Longest message kept from a body that is not JSON (an HTML error page, a proxy's text). */
const PLAIN_MAX = 500;

/**
 * An upstream error body (its secrets already redacted) rewritten in the
 * agent's family shape, keeping the message. The type comes from the
 * status, not from the upstream's type (OpenAI's own 429 says
 * `type: "requests"`, which no Anthropic client knows); an OpenAI agent
 * gets the upstream's own type or code as `code`.
 */
export function translateErrorBody(agentWire: Wire, status: number, upstreamBody: Buffer): Buffer {
  const error = readUpstreamError(status, upstreamBody);
  if (agentWire === 'messages') {
    return Buffer.from(JSON.stringify({ type: 'error', error: { type: anthropicType(status), message: error.message } }));
  }
  return Buffer.from(JSON.stringify({ error: { message: error.message, type: openaiType(status), code: error.kind } }));
}

function anthropicType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function openaiType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

function readUpstreamError(status: number, body: Buffer): UpstreamError {
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const plain = text.trim();
    return { message: plain === '' ? `the upstream answered ${status}` : plain.slice(0, PLAIN_MAX), kind: null };
  }
  const root = record(parsed);
  const inner = record(root?.error);
  if (inner !== null) {
    return {
      message: str(inner.message) ?? str(root?.message) ?? `the upstream answered ${status}`,
      kind: str(inner.code) ?? str(inner.type) ?? null,
    };
  }
  return {
    message: str(root?.error) ?? str(root?.message) ?? str(root?.detail) ?? `the upstream answered ${status}`,
    kind: str(root?.code) ?? str(root?.type) ?? null,
  };
}

function record(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;
}
