import type { Breaker } from './breaker.js';

/**
 * Which breakers a person's command names: `reset` and `probe` of a seat, or
 * of one target on it (SPEC.md "Reset", spec/protocol-v2.md `probe`). The
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

/** The breakers among `breakers` that a command on `seat` (or `seat/model`) names, in their given order. */
export function breakersNamedBy(breakers: Iterable<Breaker>, seat: CommandSeat, model?: string): Breaker[] {
  return [...breakers].filter((b) => namedByCommand(b, seat, model));
}
