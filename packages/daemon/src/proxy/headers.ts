import type { IncomingHttpHeaders } from 'node:http';
import { mergeBeta } from './anthropic-beta.js';
import type { SeatHeaders } from './seat-headers.js';

/**
 * Which headers cross the proxy, in both directions: the agent's own ones
 * but its credentials and the hop-by-hop ones; the upstream's but the
 * hop-by-hop ones and `set-cookie`.
 */

export type HeaderMap = Record<string, string | string[]>;

/** RFC 9110 §7.6.1 connection-specific headers, plus the legacy proxy ones. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
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

/** The agent's headers as forwarded to a seat: filtered by the seat's rules, `anthropic-beta` merged, then the seat's own set on top. */
export function upstreamRequestHeaders(agent: IncomingHttpHeaders, seat: SeatHeaders): HeaderMap {
  const out: HeaderMap = {};
  const named = connectionNamed(agent.connection);
  for (const name in agent) {
    const value = agent[name];
    if (value === undefined || seat.dropped.has(name) || named?.has(name)) continue;
    out[name] = value;
  }
  if (seat.beta !== null) {
    const merged = mergeBeta(out['anthropic-beta'], seat.beta);
    if (merged === undefined) delete out['anthropic-beta'];
    else out['anthropic-beta'] = merged;
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
