import { type Breaker, breakerKey } from './breaker.js';

/** A chain entry as the rules see it: which seat, which model, and the seat's upstream. */
export interface TargetIdentity {
  seat: string;
  model: string;
  /** the seat's base URL without a trailing `/`: seats that share it share a provider layer (spec/lanes.md) */
  upstream: string;
}

/**
 * The upstream of a seat, as breaker keys and `Breaker.upstream` carry it.
 * Seats of one provider with the same base URL (compared without a trailing
 * `/`) share it; the provider is implied by the URL (two families at one URL
 * never share a model name in practice).
 */
export function upstreamOf(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** Every key of a breaker that would hold this target back, whatever its kind. */
export function coveringKeys(t: TargetIdentity): string[] {
  return [
    breakerKey('credit', { scope: 'seat', seat: t.seat }),
    breakerKey('key_rejected', { scope: 'seat', seat: t.seat }),
    breakerKey('quota', { scope: 'seat', seat: t.seat }),
    breakerKey('quota', { scope: 'model', seat: t.seat, model: t.model }),
    breakerKey('rate_limit', { scope: 'seat', seat: t.seat }),
    breakerKey('errors', { scope: 'provider', upstream: t.upstream, model: t.model }),
    breakerKey('errors', { scope: 'model', seat: t.seat, model: t.model }),
  ];
}

/** Does `b` hold back target `t`? */
export function covers(b: Breaker, t: TargetIdentity): boolean {
  switch (b.scope) {
    case 'seat':
      return b.seat === t.seat;
    case 'model':
      return b.seat === t.seat && b.model === t.model;
    case 'provider':
      return b.upstream === t.upstream && b.model === t.model;
  }
}
