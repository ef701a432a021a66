import type { BreakerEvent, BreakerState, SnapshotSeat } from '@routeplane/shared';

/**
 * The monitor's copy of the daemon's breaker state, in the snapshot's own
 * `seats` shape. A snapshot replaces it; a breaker event updates it at once
 * so the screen moves within one flush, and the next snapshot (requested
 * after every breaker event) corrects anything an event cannot carry, such
 * as refused counts. Pure: no clock, no I/O; every update returns new objects
 * for what it changed.
 */
export type BreakerModel = readonly SnapshotSeat[];

export function applyBreakerEvent(model: BreakerModel, event: BreakerEvent): BreakerModel {
  const index = model.findIndex((seat) => seat.id === event.seat);
  // A seat we do not know yet: the snapshot this event schedules will bring it.
  if (index === -1) return model;
  const seat = model[index] as SnapshotSeat;
  const updated = applyToSeat(seat, event);
  if (updated === seat) return model;
  const next = model.slice();
  next[index] = updated;
  return next;
}

function applyToSeat(seat: SnapshotSeat, event: BreakerEvent): SnapshotSeat {
  switch (event.scope) {
    case 'seat_credit':
      return { ...seat, credit: nextBreaker(seat.credit, event) };
    case 'seat_rate_limit':
      return { ...seat, rate_limit: nextRateLimit(seat.rate_limit, event) };
    case 'model': {
      if (event.model === null) return seat;
      const models = seat.models.slice();
      const at = models.findIndex((m) => m.model === event.model);
      const current = at === -1 ? { model: event.model, streak: 0, breaker: null } : models[at]!;
      const breaker = nextBreaker(current.breaker, event);
      const updated = { ...current, breaker, streak: breaker === null ? 0 : current.streak };
      if (at === -1) models.push(updated);
      else models[at] = updated;
      return { ...seat, models };
    }
  }
}

function nextBreaker(prev: BreakerState | null, event: BreakerEvent): BreakerState | null {
  switch (event.action) {
    case 'tripped':
    case 'probe_failed':
      return {
        tripped_at: event.ts,
        cooldown_ms: event.cooldown_ms ?? prev?.cooldown_ms ?? 0,
        probe_ready_at: event.until ?? prev?.probe_ready_at ?? event.ts,
        failed_probes: event.failed_probes,
        refused_count: prev?.refused_count ?? 0,
        claimed_at: null,
      };
    case 'extended':
      return {
        tripped_at: prev?.tripped_at ?? event.ts,
        cooldown_ms: event.cooldown_ms ?? prev?.cooldown_ms ?? 0,
        probe_ready_at: event.until ?? prev?.probe_ready_at ?? event.ts,
        failed_probes: event.failed_probes,
        refused_count: prev?.refused_count ?? 0,
        claimed_at: prev?.claimed_at ?? null,
      };
    case 'probe_ready':
      return {
        ...(prev ?? missedTrip(event)),
        probe_ready_at: Math.min(prev?.probe_ready_at ?? event.ts, event.ts),
        claimed_at: null,
      };
    case 'probe_claimed':
      return { ...(prev ?? missedTrip(event)), claimed_at: event.ts };
    case 'cleared':
    case 'reset':
      return null;
  }
}

/** A probe event for a breaker whose trip we never saw (we connected later). */
function missedTrip(event: BreakerEvent): BreakerState {
  return {
    tripped_at: event.ts,
    cooldown_ms: event.cooldown_ms ?? 0,
    probe_ready_at: event.ts,
    failed_probes: event.failed_probes,
    refused_count: 0,
    claimed_at: null,
  };
}

function nextRateLimit(prev: SnapshotSeat['rate_limit'], event: BreakerEvent): SnapshotSeat['rate_limit'] {
  switch (event.action) {
    case 'tripped':
    case 'extended':
    case 'probe_failed': {
      const until = event.until ?? event.ts;
      // A rate-limit deadline only ever moves forward (spec, "The influence breaker").
      return {
        since: prev?.since ?? event.ts,
        until: Math.max(prev?.until ?? until, until),
        refused_count: prev?.refused_count ?? 0,
      };
    }
    case 'cleared':
    case 'reset':
      return null;
    case 'probe_ready':
    case 'probe_claimed':
      // Rate limits are never probed; nothing to change.
      return prev;
  }
}
