/**
 * The upstream's `error` member: read from
 * a JSON object body, or from a one-element JSON array holding one (Gemini's
 * OpenAI-compatible API wraps its error that way). Only what the rules and
 * the signal read is kept, each field checked for its type: the body is the
 * upstream's and may be anything.
 */
export interface UpstreamError {
  /** error.type (Anthropic, OpenAI, Codex) */
  type: string | null;
  /** error.status (Google: `RESOURCE_EXHAUSTED`) */
  status: string | null;
  /** error.code: a string (OpenAI) or a number (OpenRouter, Google: an HTTP status) */
  code: string | number | null;
  /** error.details.error_code (Anthropic's spend cap) */
  detailsErrorCode: string | number | null;
  message: string | null;
  /** Codex: error.resets_at (epoch seconds) and error.resets_in_seconds, as sent */
  resetsAt: unknown;
  resetsInSeconds: unknown;
  /** Google: the first `retryDelay` among error.details[], as sent */
  retryDelay: unknown;
}

/** A body larger than this is classified by its status alone. */
export const MAX_ERROR_BODY_BYTES = 65_536;

type JsonObject = Record<string, unknown>;

/** The error in a whole body (already decoded), or null when the body holds none. */
export function readUpstreamError(body: Buffer): UpstreamError | null {
  if (body.length > MAX_ERROR_BODY_BYTES) return null;
  const parsed = parseJson(body.toString('utf8'));
  return parsed === undefined ? null : errorOfDocument(parsed);
}

/** JSON.parse without throwing (a BOM tolerated); undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
}

/** The `error` object of a parsed document: `{error: {…}}` or `[{error: {…}}]`. */
export function errorOfDocument(document: unknown): UpstreamError | null {
  const holder = Array.isArray(document) ? (document.length === 1 ? document[0] : undefined) : document;
  if (!isObject(holder)) return null;
  const error = own(holder, 'error');
  return isObject(error) ? fieldsOf(error) : null;
}

function fieldsOf(error: JsonObject): UpstreamError {
  const details = own(error, 'details');
  return {
    type: stringOf(own(error, 'type')),
    status: stringOf(own(error, 'status')),
    code: codeOf(own(error, 'code')),
    detailsErrorCode: isObject(details) ? codeOf(own(details, 'error_code')) : null,
    message: stringOf(own(error, 'message')),
    resetsAt: own(error, 'resets_at'),
    resetsInSeconds: own(error, 'resets_in_seconds'),
    retryDelay: Array.isArray(details) ? firstRetryDelay(details) : undefined,
  };
}

function firstRetryDelay(details: unknown[]): unknown {
  for (const entry of details) {
    if (!isObject(entry)) continue;
    const delay = own(entry, 'retryDelay');
    if (delay !== undefined) return delay;
  }
  return undefined;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own properties only: a body's `__proto__` or `constructor` key must not reach the prototype. */
export function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function stringOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function codeOf(value: unknown): string | number | null {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : null;
}

/** The code as the signal and the rules compare it: a number in decimal. */
export function codeText(code: string | number | null): string | null {
  return code === null ? null : String(code);
}

/** Case-insensitive substring match on error.message. */
export function messageHas(error: UpstreamError | null, phrase: string): boolean {
  return error?.message?.toLowerCase().includes(phrase) === true;
}
