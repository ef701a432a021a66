import { findModelSpan, type Span } from './model-swap.js';

/** What the proxy needs from an agent's body, read once. */
export type AgentBody =
  | { ok: true; model: string; stream: boolean; body: Buffer; modelSpan: Span }
  | { ok: false; message: string };

/**
 * Validates the raw body: a JSON object with a string `model` (spec "Bad
 * bodies"). Parses once; the bytes themselves go upstream, not a re-serialisation.
 */
export function readAgentBody(body: Buffer | undefined): AgentBody {
  if (body === undefined || body.length === 0) return { ok: false, message: 'request body is empty: expected a JSON object with a "model" field' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, message: 'request body is not valid JSON: expected a JSON object with a "model" field' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, message: 'request body must be a JSON object with a "model" field' };
  }
  const record = parsed as Record<string, unknown>;
  if (!Object.hasOwn(record, 'model')) return { ok: false, message: 'request body has no "model" field' };
  const model = record.model;
  if (typeof model !== 'string') return { ok: false, message: `request body field "model" must be a string, got ${describe(model)}` };
  const modelSpan = findModelSpan(body);
  if (modelSpan === null) return { ok: false, message: 'request body "model" field could not be located' };
  return { ok: true, model, stream: record.stream === true, body, modelSpan };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
