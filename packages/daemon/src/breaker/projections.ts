import {
  type Breaker,
  type BreakerState,
  breakerKey,
  type OpenBreaker,
  projectRoutes,
  type Snapshot,
  type SnapshotRoute,
  tripReason,
  v1Scope,
} from '@routeplane/shared';
import type { EngineState } from './engine-state.js';

/**
 * What the engine shows: every breaker as last announced, the routes ordered
 * by the shared rules over those, v1's per-seat fields, and the open list of
 * `status`. All read the published copies, so they agree with the event
 * stream up to the last `seq`.
 */

export function routes(s: EngineState): SnapshotRoute[] {
  return projectRoutes(s.topology.routes, s.table.publishedBreakers(), s.topology.upstreamOf, s.store.info().state === 'ok');
}

export function seats(s: EngineState): Snapshot['seats'] {
  const now = s.clock.now();
  const published = new Map(s.table.publishedBreakers().map((b) => [b.key, b]));
  return [...s.topology.seats.values()].map((seat) => {
    const credit = published.get(breakerKey('credit', { scope: 'seat', seat: seat.id }));
    const rateLimit = published.get(breakerKey('rate_limit', { scope: 'seat', seat: seat.id }));
    return {
      id: seat.id,
      provider: seat.provider,
      auth: seat.auth,
      upstream: seat.upstream,
      credit: credit ? v1Breaker(credit) : null,
      rate_limit: rateLimit
        ? { since: rateLimit.since, until: rateLimit.until ?? rateLimit.since, refused_count: rateLimit.refused_count }
        : null,
      models: seat.models.map((model) => {
        const errors = published.get(breakerKey('errors', { scope: 'model', seat: seat.id, model }));
        return { model, streak: s.streaks.count(`${seat.id}/${model}`, now), breaker: errors ? v1Breaker(errors) : null };
      }),
      usage: null,
    };
  });
}

/** v1's shape of a breaker with a cooldown and a probe. */
function v1Breaker(b: Breaker): BreakerState {
  return {
    tripped_at: b.since,
    cooldown_ms: b.cooldown_ms ?? 0,
    probe_ready_at: b.until ?? b.since,
    failed_probes: b.failed_probes,
    refused_count: b.refused_count,
    claimed_at: b.claimed_at,
  };
}

export function openBreakers(s: EngineState): OpenBreaker[] {
  return s.table.publishedBreakers().map((b) => ({
    scope: v1Scope(b.kind, b.scope),
    seat: b.seat,
    model: b.model,
    reason: tripReason(b.kind, b.scope),
    refused_count: b.refused_count,
    until: b.until,
    key: b.key,
    kind: b.kind,
    phase: b.phase,
    skipped_count: b.skipped_count,
    reset_at: b.reset_at,
    signal: b.signal,
  }));
}
