import { type Breaker, TRIP_REASON_ORDER, type TripReason, tripReason } from './breaker.js';

/**
 * What a chain entry is, now: the one rule that turns breakers into a
 * target's state. The daemon's
 * engine routes by it and the monitor shows it; neither keeps another copy.
 *
 * - no breaker covers it → `healthy`;
 * - any covering breaker is `open` (a rate limit always is, until its
 *   deadline ends it) → `tripped` until the last of their `until`s;
 * - else one is `probing` → `probing` (another request may not probe it);
 * - else → `probe_ready`: the next request claims the probe.
 * `drained` (weight 0) is the route's word, not a breaker's: see `entryState`.
 */
export type TargetState = 'healthy' | 'tripped' | 'probe_ready' | 'probing' | 'drained';

export interface TargetStateView {
  state: TargetState;
  /** every reason that applies, in TRIP_REASON_ORDER */
  reasons: TripReason[];
  /** the deadline a countdown runs to: probe-ready time, rate-limit or quota end; null when none is ahead */
  until: number | null;
}

const HEALTHY: TargetStateView = Object.freeze({ state: 'healthy', reasons: [], until: null }) as TargetStateView;

export function targetState(covering: readonly Breaker[]): TargetStateView {
  if (covering.length === 0) return { state: 'healthy', reasons: [], until: null };
  const reasons = sortedReasons(covering);
  let openUntil: number | null = null;
  let anyOpen = false;
  let probing = false;
  let readyUntil: number | null = null;
  for (const b of covering) {
    if (b.phase === 'open') {
      anyOpen = true;
      if (b.until !== null && (openUntil === null || b.until > openUntil)) openUntil = b.until;
    } else if (b.phase === 'probing') probing = true;
    else if (b.until !== null && (readyUntil === null || b.until > readyUntil)) readyUntil = b.until;
  }
  if (anyOpen) return { state: 'tripped', reasons, until: openUntil };
  if (probing) return { state: 'probing', reasons, until: null };
  return { state: 'probe_ready', reasons, until: readyUntil };
}

/** A configured chain entry's state: drained when its weight is 0, else what its breakers say. */
export function entryState(weight: number, covering: readonly Breaker[]): TargetStateView {
  if (weight === 0) return { state: 'drained', reasons: [], until: null };
  return covering.length === 0 ? { ...HEALTHY, reasons: [] } : targetState(covering);
}

function sortedReasons(covering: readonly Breaker[]): TripReason[] {
  const seen = new Set<TripReason>();
  for (const b of covering) seen.add(tripReason(b.kind, b.scope));
  return TRIP_REASON_ORDER.filter((r) => seen.has(r));
}
