import type { BreakerState } from '@routeplane/shared';

/**
 * A tripped breaker with a cooldown and a single probe: the seat-credit
 * breaker and the per-model breaker share this shape. Mutable on purpose —
 * it lives inside the engine only and is copied out for snapshots.
 */
export interface Trip {
  trippedAt: number;
  cooldownMs: number;
  probeReadyAt: number;
  failedProbes: number;
  refusedCount: number;
  /** when the in-flight probe was claimed, null when none is */
  claimedAt: number | null;
  /** bumps on every claim so a stale probe cannot resolve a newer one */
  claimId: number;
  /** a probe_ready event went out for the current probeReadyAt */
  readyAnnounced: boolean;
  /** a probe_ready event went out because the current claim went stale */
  staleAnnounced: boolean;
}

export interface RateLimit {
  since: number;
  until: number;
  refusedCount: number;
}

export interface ModelHealth {
  /** consecutive 5xx/timeouts inside the window */
  streak: number;
  lastFailureAt: number | null;
  breaker: Trip | null;
}

export interface SeatHealth {
  id: string;
  provider: 'anthropic' | 'openai';
  credit: Trip | null;
  rateLimit: RateLimit | null;
  /** every model a route names on this seat, in first-seen order */
  models: Map<string, ModelHealth>;
}

export function newTrip(now: number, cooldownMs: number): Trip {
  return {
    trippedAt: now,
    cooldownMs,
    probeReadyAt: now + cooldownMs,
    failedProbes: 0,
    refusedCount: 0,
    claimedAt: null,
    claimId: 0,
    readyAnnounced: false,
    staleAnnounced: false,
  };
}

export function tripView(trip: Trip): BreakerState {
  return {
    tripped_at: trip.trippedAt,
    cooldown_ms: trip.cooldownMs,
    probe_ready_at: trip.probeReadyAt,
    failed_probes: trip.failedProbes,
    refused_count: trip.refusedCount,
    claimed_at: trip.claimedAt,
  };
}
