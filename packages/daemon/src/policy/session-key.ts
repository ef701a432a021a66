import { hash } from 'node:crypto';
import type { Family } from '@routeplane/shared';
import { memberSpan, names, type Span } from '../proxy/top-level-scan.js';

/**
 * The session key `balance: spread` hashes, first
 * present of: header `x-routeplane-session`; header `x-claude-code-session-id`;
 * the Anthropic body's `metadata.user_id` (the whole string); header
 * `session-id`, then `session_id` (Codex); the OpenAI body's
 * `prompt_cache_key`. Body fields count only in their own family. An empty
 * value counts as absent: an empty key would put every such agent on one seat.
 *
 * The body members come from the one top-level scan that also finds `model`
 * (proxy/top-level-scan.ts): only their small values are ever parsed, and
 * only when no header earlier in the list already decided.
 */

/** Where the body's session members are, as the top-level scan found them. */
export interface SessionSpans {
  /** the top-level `metadata` value (Anthropic) */
  readonly metadata: Span | null;
  /** the top-level `prompt_cache_key` value (OpenAI) */
  readonly promptCacheKey: Span | null;
}

/** Request headers by lower-case name, as Node gives them. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

export interface Session {
  /** what is hashed for the order; never recorded, logged or shown */
  readonly key: string;
  /** the first 12 hex digits of SHA-256 of the key: what the decision records */
  readonly tag: string;
}

const USER_ID = names('user_id');

/** The request's session, or null when it names none (then: a random key, `session: null`). */
export function sessionOf(headers: HeaderBag, family: Family, body: Buffer, spans: SessionSpans): Session | null {
  const key = sessionKey(headers, family, body, spans);
  return key === null ? null : { key, tag: sessionTag(key) };
}

export function sessionKey(headers: HeaderBag, family: Family, body: Buffer, spans: SessionSpans): string | null {
  const key = header(headers, 'x-routeplane-session') ?? header(headers, 'x-claude-code-session-id');
  if (key !== null) return key;
  if (family === 'anthropic' && spans.metadata !== null) {
    const userId = memberSpan(body, spans.metadata, USER_ID);
    const value = userId === null ? null : stringAt(body, userId);
    if (value !== null) return value;
  }
  const codex = header(headers, 'session-id') ?? header(headers, 'session_id');
  if (codex !== null) return codex;
  if (family === 'openai' && spans.promptCacheKey !== null) return stringAt(body, spans.promptCacheKey);
  return null;
}

/** What the decision records of a key: never the key itself. */
export function sessionTag(key: string): string {
  return hash('sha256', key, 'hex').slice(0, 12);
}

const NON_ASCII = /[^\x00-\x7f]/;

function header(headers: HeaderBag, name: string): string | null {
  const raw = headers[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return null;
  // Node reads header bytes as latin1: give a UTF-8 value back the text the agent sent
  return NON_ASCII.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
}

/** The JSON string at `span`, or null when the value is not a non-empty string. */
function stringAt(body: Buffer, span: Span): string | null {
  if (body[span.start] !== 0x22) return null;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8', span.start, span.end));
  } catch {
    return null;
  }
  return typeof value === 'string' && value !== '' ? value : null;
}
