import type { ServerResponse } from 'node:http';
import { formatDuration } from '@routeplane/shared';
import type { HeldBack } from '../breaker/types.js';
import { routeplaneHeaders, sendJsonError } from './agent-response.js';
import type { DecisionFacts } from './decision.js';
import { errorBody, errorStatus } from './error-shapes.js';

/**
 * Background work with nothing routable: 503 at once, with no
 * upstream attempt, `Retry-After` until the earliest moment a target can be
 * routable again, and a message naming each target and why. Skipped work is
 * not lost work: the caller is told when to come back.
 */
export function heldBackAnswer(
  res: ServerResponse,
  facts: DecisionFacts,
  route: string,
  heldBack: readonly HeldBack[],
  now: number,
  decision: string,
): number {
  // the earliest moment any target is routable for background work (each target's: its breaker and its reserve both passed)
  const earliest = heldBack.reduce<number | null>(
    (at, h) => (h.routableAt === null ? at : at === null ? h.routableAt : Math.min(at, h.routableAt)),
    null,
  );
  const retryAfter = Math.max(1, Math.ceil(((earliest ?? now) - now) / 1000));
  const why = heldBack.map((h) => `${h.seat}/${h.model} ${describe(h, now)}`).join(', ');
  const message = `all targets of route ${JSON.stringify(route)} are held back for background work: ${why}`;
  const headers = routeplaneHeaders(facts.requestId, 0, null, decision);
  headers['retry-after'] = String(retryAfter);
  const status = errorStatus('unavailable');
  sendJsonError(res, status, headers, errorBody(facts.family, 'unavailable', message));
  return status;
}

function describe(h: HeldBack, now: number): string {
  const breaker = describeReason(h, now);
  if (h.reserveUntil === null) return breaker;
  return `${breaker} and reserve (resets in ${formatDuration(Math.max(0, h.reserveUntil - now))})`;
}

function describeReason(h: HeldBack, now: number): string {
  const left = h.until === null ? null : formatDuration(Math.max(0, h.until - now));
  switch (h.reason) {
    case 'rate_limit':
      return left === null ? 'rate limited' : `rate limited (ends in ${left})`;
    case 'quota':
    case 'reserve':
      return left === null ? h.reason : `${h.reason} (resets in ${left})`;
    default:
      return left === null ? h.reason : `${h.reason} (probe in ${left})`;
  }
}
