import type { IncomingHttpHeaders } from 'node:http';
import type { DecisionChainEntry, Family, RequestSkipReason } from '@routeplane/shared';
import type { PreparedTarget } from './route-table.js';

/**
 * Which of a route's targets this one request cannot be sent to, and why —
 * beside the route's own skips (the other family, drained), which the route
 * table knows once per config. Today: a seat that is the agent's own login
 * (`auth: passthrough`) when the request carried no credentials of the
 * agent's own. A skipped target is never an attempt and counts in no
 * breaker; the decision lists it as `skipped` with the reason.
 */

/** What the skip rules read of a request. */
export interface SkipRequest {
  readonly family: Family;
  /** the agent's headers, with the daemon's own token already taken off */
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One target this request cannot be sent to. */
export interface RequestSkip {
  readonly target: PreparedTarget;
  readonly reason: RequestSkipReason;
  /** what of the request stood in the way, in words; null when the reason says it all */
  readonly detail: string | null;
}

const NO_SKIPS: readonly RequestSkip[] = Object.freeze([]);

/** The targets of `targets` (a route's, for the request's family) this request cannot be sent to, in their order. */
export function requestSkips(request: SkipRequest, targets: readonly PreparedTarget[]): readonly RequestSkip[] {
  let skips: RequestSkip[] | null = null;
  let credentials: boolean | null = null;
  for (const target of targets) {
    if (!target.login) continue;
    credentials ??= carriesCredentials(request.headers);
    if (!credentials) (skips ??= []).push({ target, reason: 'no_credentials', detail: null });
  }
  return skips ?? NO_SKIPS;
}

/** The agent sent a login of its own (its token, when it was the daemon's, is already off). */
function carriesCredentials(headers: IncomingHttpHeaders): boolean {
  return !!headers.authorization || !!headers['x-api-key'];
}

/** A skip as the decision's chain lists it. */
export function skippedEntry(skip: RequestSkip): DecisionChainEntry {
  return { seat: skip.target.seat, model: skip.target.model, state: 'skipped', reason: skip.reason, pinned: false, left_ms: null };
}
