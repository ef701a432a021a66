import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The agent token (`server.auth_token_env`). Accepted as
 * `Authorization: Bearer …` (scheme case-insensitive) or `x-api-key`, compared
 * in constant time: both sides are hashed to equal-length digests first, so
 * neither the content nor the length of the token leaks through timing.
 * The token itself is never forwarded (headers.ts drops both headers).
 */
export class TokenCheck {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = digest(token);
  }

  accepts(headers: IncomingHttpHeaders): boolean {
    const bearer = bearerToken(headers.authorization);
    const apiKey = headers['x-api-key'];
    // evaluate both, so which header carried the token does not change the timing either
    const viaBearer = bearer !== null && timingSafeEqual(digest(bearer), this.expected);
    const viaApiKey = typeof apiKey === 'string' && timingSafeEqual(digest(apiKey), this.expected);
    return viaBearer || viaApiKey;
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
