import type { SeatAuth } from '@routeplane/shared';
import type { ResolvedSeat } from '../credentials.js';
import { type BetaRule, betaRule } from './anthropic-beta.js';
import { HOP_BY_HOP } from './headers.js';

/**
 * What a seat does to the headers of every request it is sent, by its
 * `auth` (docs/seats.md), computed once per config so a request only looks
 * names up:
 *   x-api-key    its key as `x-api-key`; the agent's credentials stay here
 *   bearer       its key as `Authorization: Bearer`; the agent's stay here
 *   passthrough  the agent's own `authorization`, `x-api-key` and
 *                `chatgpt-account-id`, as they came; no key of ours
 *   none         no credential at all
 * Whatever the kind, the daemon's own token (`x-routeplane-token`) never
 * leaves, and an Anthropic seat gets `anthropic-version` when the agent
 * sent none.
 */
export interface SeatHeaders {
  readonly auth: SeatAuth;
  /** agent headers never forwarded to this seat */
  readonly dropped: ReadonlySet<string>;
  /** set on every request, over the agent's: the configured extras, then the seat's credential */
  readonly fixed: Readonly<Record<string, string>>;
  /** `anthropic-version` to add when neither the agent nor the seat config sent one */
  readonly defaultAnthropicVersion: string | null;
  /** how the agent's `anthropic-beta` is changed; null: it goes as it came */
  readonly beta: BetaRule | null;
}

export const ANTHROPIC_VERSION = '2023-06-01';

/** The agent's login: forwarded only to a passthrough seat. */
const LOGIN_HEADERS = ['authorization', 'x-api-key', 'chatgpt-account-id'];

/**
 * Never forwarded to any seat: hop-by-hop headers, the daemon's token, and
 * what the upstream client computes itself (`host`, `content-length` — the
 * body changes length with the model — and `expect`, which undici refuses).
 */
const NEVER_FORWARDED = [...HOP_BY_HOP, 'x-routeplane-token', 'host', 'content-length', 'expect'];

const DROPPED_FOR_LOGIN: ReadonlySet<string> = new Set(NEVER_FORWARDED);
const DROPPED_FOR_KEY: ReadonlySet<string> = new Set([...NEVER_FORWARDED, ...LOGIN_HEADERS]);

/** Seat headers that are ours to set (credentials come from `auth`), or the request's own. */
const NOT_CONFIGURABLE: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'host', 'content-length', 'authorization', 'x-api-key']);

export function seatHeaders(seat: ResolvedSeat): SeatHeaders {
  const passthrough = seat.auth === 'passthrough';
  const fixed: Record<string, string> = {};
  let seatBeta: string | undefined;
  for (const [name, value] of Object.entries(seat.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'anthropic-beta') seatBeta = seatBeta === undefined ? value : `${seatBeta},${value}`;
    else if (!NOT_CONFIGURABLE.has(lower)) fixed[lower] = value;
  }
  if (seat.auth === 'x-api-key') fixed['x-api-key'] = seat.apiKey ?? '';
  if (seat.auth === 'bearer') fixed.authorization = `Bearer ${seat.apiKey ?? ''}`;
  const hasVersion = Object.hasOwn(fixed, 'anthropic-version');
  return {
    auth: seat.auth,
    dropped: passthrough ? DROPPED_FOR_LOGIN : DROPPED_FOR_KEY,
    fixed,
    defaultAnthropicVersion: seat.provider === 'anthropic' && !hasVersion ? ANTHROPIC_VERSION : null,
    beta: betaRule(seatBeta, passthrough),
  };
}
