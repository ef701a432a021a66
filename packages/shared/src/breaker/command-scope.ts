import { type Breaker, TRIP_REASON_ORDER, tripReason } from './breaker.js';

/**
 * Which breakers a person's command names: `reset` and `probe` of a seat, or
 * of one target on it. The
 * daemon acts on exactly these and `top` asks about exactly these, so a
 * confirm never promises what the daemon will not do, nor says "nothing to
 * reset" where the daemon would clear something. Pure.
 */

/** A seat as its commands see it: its id, its upstream, and every model a route names on it. */
export interface CommandSeat {
  readonly id: string;
  /** the seat's base URL without a trailing `/` (as `Breaker.upstream` carries it) */
  readonly upstream: string;
  readonly models: readonly string[];
}

/**
 * Does a command on `seat` (or on target `seat/model`) name `b`?
 * - a seat: its seat-wide breakers, its targets' breakers, and the provider
 *   breakers of the models it serves through its upstream;
 * - a target: that target's breakers and the provider breaker covering it
 *   (seat-wide breakers belong to the seat, not to one of its targets).
 */
export function namedByCommand(b: Breaker, seat: CommandSeat, model?: string): boolean {
  const modelNamed = (m: string | null) => m !== null && (model === undefined ? seat.models.includes(m) : m === model);
  switch (b.scope) {
    case 'seat':
      return model === undefined && b.seat === seat.id;
    case 'model':
      return b.seat === seat.id && (model === undefined || b.model === model);
    case 'provider':
      return b.upstream === seat.upstream && modelNamed(b.model);
  }
}

/**
 * The breakers among `breakers` that a command on `seat` (or `seat/model`)
 * names, in the order people read them and the daemon acts on them:
 * seat-wide ones first, then each model's in the seat's model order, each
 * group in TRIP_REASON_ORDER.
 */
export function breakersNamedBy(breakers: Iterable<Breaker>, seat: CommandSeat, model?: string): Breaker[] {
  const modelRank = (b: Breaker) => {
    if (b.model === null) return -1;
    const at = seat.models.indexOf(b.model);
    return at === -1 ? seat.models.length : at;
  };
  const reasonRank = (b: Breaker) => TRIP_REASON_ORDER.indexOf(tripReason(b.kind, b.scope));
  return [...breakers]
    .filter((b) => namedByCommand(b, seat, model))
    .sort((a, b) => modelRank(a) - modelRank(b) || reasonRank(a) - reasonRank(b));
}
