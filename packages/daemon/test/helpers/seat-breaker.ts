import type { Breaker, BreakerKind } from '@routeplane/shared';

/** A seat-wide breaker on seat `a`, open since `since` with a 60 s cooldown; `over` changes any field. */
export function seatBreaker(kind: BreakerKind, since: number, over: Partial<Breaker> = {}): Breaker {
  return {
    key: `${kind}:a`,
    kind,
    scope: 'seat',
    seat: 'a',
    upstream: null,
    model: null,
    phase: 'open',
    since,
    until: since + 60_000,
    reset_at: null,
    cooldown_ms: 60_000,
    failed_probes: 0,
    refused_count: 0,
    skipped_count: 0,
    claimed_at: null,
    signal: null,
    ...over,
  };
}
