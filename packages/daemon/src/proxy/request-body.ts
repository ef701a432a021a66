import type { SessionSpans } from '../policy/session-key.js';
import { scanTopLevel, type Span } from './top-level-scan.js';

/** What the proxy needs from an agent's body, read once. */
export type AgentBody =
  | { ok: true; model: string; stream: boolean; body: Buffer; modelSpan: Span; sessionSpans: SessionSpans }
  | { ok: false; message: string };

const NOT_JSON = 'request body is not valid JSON: expected a JSON object with a "model" field';

/**
 * Validates the raw body: a JSON object with a string `model`. Only the top level is scanned and only the `model` and `stream`
 * values are parsed; a body malformed deeper inside goes upstream as it is,
 * and the provider's own 400 comes back (see top-level-scan.ts). The bytes
 * themselves go upstream, never a re-serialisation.
 */
export function readAgentBody(body: Buffer | undefined): AgentBody {
  if (body === undefined || body.length === 0)
    return { ok: false, message: 'request body is empty: expected a JSON object with a "model" field' };
  const scan = scanTopLevel(body);
  if (scan.kind === 'not_object')
    return { ok: false, message: isJson(body) ? 'request body must be a JSON object with a "model" field' : NOT_JSON };
  if (scan.kind === 'malformed') return { ok: false, message: NOT_JSON };
  if (scan.model === null) return { ok: false, message: 'request body has no "model" field' };
  const model = parseSpan(body, scan.model);
  if (model === INVALID) return { ok: false, message: NOT_JSON };
  if (typeof model !== 'string') return { ok: false, message: `request body field "model" must be a string, got ${describe(model)}` };
  const stream = scan.stream === null ? false : parseSpan(body, scan.stream);
  if (stream === INVALID) return { ok: false, message: NOT_JSON };
  const sessionSpans = { metadata: scan.metadata, promptCacheKey: scan.promptCacheKey };
  return { ok: true, model, stream: stream === true, body, modelSpan: scan.model, sessionSpans };
}

const INVALID = Symbol('invalid JSON');

function parseSpan(body: Buffer, span: Span): unknown {
  try {
    return JSON.parse(body.toString('utf8', span.start, span.end));
  } catch {
    return INVALID;
  }
}

/** Only for a body that is not an object: is it JSON at all? (which of two messages to give) */
function isJson(body: Buffer): boolean {
  try {
    JSON.parse(body.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
