import { type Breaker, breakerKey } from './breaker.js';

/** A chain entry as the rules see it: which seat, which model, and the seat's upstream. */
export interface TargetIdentity {
  seat: string;
  model: string;
  /** the seat's upstream id (`upstreamIds`): seats that share it share a provider layer */
  upstream: string;
}

/** What `upstreamIds` needs of a seat. */
export interface UpstreamSeat {
  id: string;
  provider: string;
  base_url: string;
}

/**
 * Each seat's upstream id, as breaker keys and `Breaker.upstream` carry it,
 * computed from the whole seat list. Seats share a provider layer when they
 * have the same provider and the same base URL compared without a trailing
 * `/`. The id is that URL (the v2 key format,
 * `errors:provider:<url>/<model>`); only when seats of more than one
 * provider use one URL (a gateway serving both families) is it qualified as
 * `<url>#<provider>`, so an anthropic and an openai seat there never share
 * a streak or a breaker for a model name they happen to share.
 */
export function upstreamIds(seats: readonly UpstreamSeat[]): Map<string, string> {
  const providersAt = new Map<string, Set<string>>();
  for (const seat of seats) {
    const url = withoutTrailingSlash(seat.base_url);
    const providers = providersAt.get(url) ?? new Set<string>();
    providers.add(seat.provider);
    providersAt.set(url, providers);
  }
  const ids = new Map<string, string>();
  for (const seat of seats) {
    const url = withoutTrailingSlash(seat.base_url);
    const mixed = (providersAt.get(url)?.size ?? 0) > 1;
    ids.set(seat.id, mixed ? `${url}#${seat.provider}` : url);
  }
  return ids;
}

function withoutTrailingSlash(baseUrl: string): string {
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
