import type { Evidence } from './evidence.js';

/**
 * Which failed attempt's answer the agent gets when every attempt failed:
 * the one whose
 * evidence says "retry soon" most truthfully. Tripped targets are tried last,
 * so the last answer is usually a seat already known to be dead; a sibling's
 * 429 or 5xx tells an SDK more than a 402 does.
 *
 * Order: `rate_limit` (earliest deadline), `model_error`, `request`,
 * `key_rejected`, `quota` (earliest reset), `credit`; ties → the earliest
 * attempt. Only attempts that got an upstream answer (a status, headers and a
 * body to relay) belong in the list: a timeout or a reset connection has
 * nothing to hand back.
 */
export interface FailedAnswer {
  evidence: Evidence;
  /** epoch ms when the answer was classified: a rate limit's `waitMs` counts from it */
  at: number;
}

/**
 * The failure to relay, or null for an empty list. Generic so the forwarder
 * can keep what it relays (status, headers, body, target) on the same object.
 */
export function answerToRelay<T extends FailedAnswer>(failures: readonly T[]): T | null {
  let best: T | null = null;
  let bestRank = Number.POSITIVE_INFINITY;
  let bestWhen = Number.POSITIVE_INFINITY;
  for (const failure of failures) {
    const rank = RANK[failure.evidence.class];
    const when = soonest(failure);
    // strictly better only: on a tie the earlier attempt stays
    if (rank < bestRank || (rank === bestRank && when < bestWhen)) {
      best = failure;
      bestRank = rank;
      bestWhen = when;
    }
  }
  return best;
}

const RANK: Readonly<Record<Evidence['class'], number>> = {
  rate_limit: 0,
  model_error: 1,
  request: 2,
  key_rejected: 3,
  quota: 4,
  credit: 5,
  // never expected here (a `none` is passed back at once, an `ok` served), ranked last so they lose
  none: 6,
  ok: 7,
  aborted: 8,
};

/** The engine's floor on a rate-limit deadline: a wait under 1 s (or none stated) holds 1 s. */
const RATE_LIMIT_FLOOR_MS = 1000;

/** When the target is expected back: the rate limit's deadline, the quota's reset; 0 (a tie) for the others. */
function soonest(failure: FailedAnswer): number {
  const e = failure.evidence;
  if (e.class === 'rate_limit') return failure.at + Math.max(e.waitMs ?? 0, RATE_LIMIT_FLOOR_MS);
  if (e.class === 'quota') return e.resetAt;
  return 0;
}
