import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { LaneName } from '@routeplane/shared';

/** Who sent a request: what it may reach and its default lane. */
export interface AgentIdentity {
  readonly id: string;
  /** non-empty: only these routes */
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly lane: LaneName | null;
}

interface KnownToken {
  readonly digest: Buffer;
  readonly agent: AgentIdentity;
}

/** Where a request carried the daemon's token. */
export type TokenCarrier = 'x-routeplane-token' | 'authorization' | 'x-api-key';

export interface Identified {
  readonly agent: AgentIdentity;
  /** the headers that held the token: taken off before anything is forwarded */
  readonly via: readonly TokenCarrier[];
}

export const TOKEN_HEADER = 'x-routeplane-token';

/**
 * The agent tokens (`server.agents`, and `server.auth_token_env` as the agent
 * `default` with no limits). A request carries its token in
 * `x-routeplane-token` — then that header alone is checked, and
 * `authorization` / `x-api-key` are left for a seat that passes the agent's
 * own login through — or else as `Authorization: Bearer …` (scheme
 * case-insensitive) or `x-api-key`. Compared in constant time: both sides
 * are hashed to equal-length digests first, and every known token is
 * compared every time, so neither a token's content, its length nor which
 * agent it belongs to leaks through timing.
 */
export class TokenCheck {
  private readonly known: readonly KnownToken[];

  constructor(tokens: ReadonlyArray<{ token: string; agent: AgentIdentity }>) {
    this.known = tokens.map(({ token, agent }) => ({ digest: digest(token), agent }));
  }

  /** The agent whose token the request carries and where, or null when it carries none we know. */
  identify(headers: IncomingHttpHeaders): Identified | null {
    const own = headers[TOKEN_HEADER];
    if (own !== undefined) {
      const agent = this.match(digest(Array.isArray(own) ? own.join(', ') : own), null);
      return agent === null ? null : { agent: agent.agent, via: [TOKEN_HEADER] };
    }
    const bearer = bearerToken(headers.authorization);
    const apiKey = headers['x-api-key'];
    const found = this.match(bearer === null ? null : digest(bearer), typeof apiKey === 'string' ? digest(apiKey) : null);
    if (found === null) return null;
    const via: TokenCarrier[] = [];
    if (found.a) via.push('authorization');
    if (found.b) via.push('x-api-key');
    return { agent: found.agent, via };
  }

  /** The first agent either digest names; both are compared against every token, so the timing says nothing. */
  private match(a: Buffer | null, b: Buffer | null): { agent: AgentIdentity; a: boolean; b: boolean } | null {
    let found: { agent: AgentIdentity; a: boolean; b: boolean } | null = null;
    for (const { digest: expected, agent } of this.known) {
      const inA = a !== null && timingSafeEqual(a, expected);
      const inB = b !== null && timingSafeEqual(b, expected);
      if ((inA || inB) && found === null) found = { agent, a: inA, b: inB };
    }
    return found;
  }
}

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

function bearerToken(value: string | undefined): string | null {
  if (value === undefined) return null;
  const match = BEARER.exec(value);
  return match?.[1] ?? null;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
