import type { IncomingHttpHeaders } from 'node:http';
import type { ResolvedSeat } from '../credentials.js';

/**
 * Which headers cross the proxy, in both directions: the agent's own ones
 * but its credentials and the hop-by-hop ones; the upstream's but the
 * hop-by-hop ones and `set-cookie`.
 */

export type HeaderMap = Record<string, string | string[]>;

/** RFC 9110 §7.6.1 connection-specific headers, plus the legacy proxy ones. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Agent headers never forwarded besides hop-by-hop ones: the agent's own
 * credentials, and what the upstream client computes itself (`host`,
 * `content-length` — the body changes length with the model — and `expect`,
 * which undici refuses).
 */
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'authorization', 'x-api-key', 'host', 'content-length', 'expect']);

/** Upstream response headers never relayed besides hop-by-hop ones. */
const NOT_RELAYED = new Set([...HOP_BY_HOP, 'set-cookie', 'authorization', 'x-api-key']);

/** Names listed in a `Connection` header are hop-by-hop for that message. */
function connectionNamed(value: string | string[] | undefined): Set<string> | null {
  if (value === undefined) return null;
  const text = Array.isArray(value) ? value.join(',') : value;
  const names = new Set<string>();
  for (const part of text.split(',')) {
    const name = part.trim().toLowerCase();
    if (name !== '') names.add(name);
  }
  return names;
}

/**
 * Headers a seat always sends, computed once at start: the configured extras,
 * then its credentials (set last so nothing overrides them).
 */
export interface SeatHeaders {
  readonly fixed: Readonly<Record<string, string>>;
  /** `anthropic-version` to add when neither the agent nor the seat config sent one */
  readonly defaultAnthropicVersion: string | null;
}

export const ANTHROPIC_VERSION = '2023-06-01';

export function seatHeaders(seat: ResolvedSeat): SeatHeaders {
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(seat.headers)) {
    const lower = name.toLowerCase();
    if (!HOP_BY_HOP.has(lower) && lower !== 'host' && lower !== 'content-length') fixed[lower] = value;
  }
  if (seat.provider === 'anthropic') {
    delete fixed.authorization;
    fixed['x-api-key'] = seat.apiKey;
  } else {
    delete fixed['x-api-key'];
    fixed.authorization = `Bearer ${seat.apiKey}`;
  }
  const hasVersion = Object.hasOwn(fixed, 'anthropic-version');
  return { fixed, defaultAnthropicVersion: seat.provider === 'anthropic' && !hasVersion ? ANTHROPIC_VERSION : null };
}

/** The agent's headers as forwarded to a seat: filtered, then the seat's own set on top. */
export function upstreamRequestHeaders(agent: IncomingHttpHeaders, seat: SeatHeaders): HeaderMap {
  const out: HeaderMap = {};
  const named = connectionNamed(agent.connection);
  for (const name in agent) {
    const value = agent[name];
    if (value === undefined || NOT_FORWARDED.has(name) || named?.has(name)) continue;
    out[name] = value;
  }
  if (seat.defaultAnthropicVersion !== null && out['anthropic-version'] === undefined) {
    out['anthropic-version'] = seat.defaultAnthropicVersion;
  }
  return Object.assign(out, seat.fixed);
}

/**
 * An upstream's response headers as relayed to the agent. Besides hop-by-hop
 * and `set-cookie`, any header carrying one of our secrets is dropped: an
 * upstream that echoes credentials must not leak a seat key to agents.
 */
export function relayedResponseHeaders(upstream: Record<string, string | string[] | undefined>, secrets: readonly string[]): HeaderMap {
  const out: HeaderMap = {};
  const named = connectionNamed(upstream.connection);
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || NOT_RELAYED.has(name) || named?.has(name)) continue;
    if (secrets.length > 0 && carriesSecret(value, secrets)) continue;
    out[name] = value;
  }
  return out;
}

function carriesSecret(value: string | string[], secrets: readonly string[]): boolean {
  const text = Array.isArray(value) ? value.join('\n') : value;
  for (const secret of secrets) if (text.includes(secret)) return true;
  return false;
}
