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

/**
 * The agent tokens (`server.agents`, and `server.auth_token_env` as the agent
 * `default` with no limits). A token is accepted as `Authorization: Bearer …`
 * (scheme case-insensitive) or `x-api-key`, compared in constant time: both
 * sides are hashed to equal-length digests first, and every known token is
 * compared every time, so neither a token's content, its length nor which
 * agent it belongs to leaks through timing. Tokens are never forwarded
 * (headers.ts drops both headers).
 */
export class TokenCheck {
  private readonly known: readonly KnownToken[];

  constructor(tokens: ReadonlyArray<{ token: string; agent: AgentIdentity }>) {
    this.known = tokens.map(({ token, agent }) => ({ digest: digest(token), agent }));
  }

  /** The agent whose token the request carries, or null when it carries none we know. */
  identify(headers: IncomingHttpHeaders): AgentIdentity | null {
    const bearer = bearerToken(headers.authorization);
    const apiKey = headers['x-api-key'];
    const viaBearer = bearer === null ? null : digest(bearer);
    const viaApiKey = typeof apiKey === 'string' ? digest(apiKey) : null;
    let found: AgentIdentity | null = null;
    for (const { digest: expected, agent } of this.known) {
      // evaluate both, so which header carried the token does not change the timing either
      const a = viaBearer !== null && timingSafeEqual(viaBearer, expected);
      const b = viaApiKey !== null && timingSafeEqual(viaApiKey, expected);
      if ((a || b) && found === null) found = agent;
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
