import {
  type Breaker,
  orderChain,
  projectChain,
  type Balance,
  type SeatTokens,
  type SeatUsage,
  type SnapshotSeat,
  type SnapshotTarget,
  TRIP_REASON_ORDER,
  tripReason,
  usableInForeground,
} from '@routeplane/shared';
import type { DaemonModel } from './daemon-model.js';

/**
 * What the panels show, from the daemon model: presentation only. Chains are
 * projected with the shared rules (`projectChain`, the daemon's own), and each
 * seat lists the breakers that sit on it as the daemon holds them.
 */
export interface RouteView {
  readonly route: string;
  readonly balance: Balance;
  /** as a request starting now would try them, drained entries last */
  readonly chain: readonly SnapshotTarget[];
  /** nothing in the chain may be tried now: requests run the configured order */
  readonly failOpen: boolean;
}

export interface SeatView {
  readonly id: string;
  readonly provider: SnapshotSeat['provider'];
  /** seat-wide breakers first, then each model's (its provider layer's first), in the seat's model order */
  readonly breakers: readonly Breaker[];
  /** the usage windows the provider last reported (spec/signals.md "Usage windows") */
  readonly usage: SeatUsage | null;
  /** the tokens its answers reported so far; null (or absent) when the daemon does not say */
  readonly tokens?: SeatTokens | null;
}

export function routeViews(model: DaemonModel): RouteView[] {
  const upstreams = new Map(model.seats.map((s) => [s.id, s.upstream]));
  const upstreamOf = (seat: string) => upstreams.get(seat) ?? '';
  const breakers = [...model.breakers.values()];
  return model.routes.map((route) => {
    const chain = projectChain(route.chain, breakers, upstreamOf);
    const tried = chain.filter((e) => e.state !== 'drained');
    return { route: route.model, balance: route.balance, chain, failOpen: orderChain(tried, (e) => usableInForeground(e.state)).failOpen };
  });
}

export function seatViews(model: DaemonModel): SeatView[] {
  const breakers = [...model.breakers.values()];
  return model.seats.map((seat) => ({
    id: seat.id,
    provider: seat.provider,
    breakers: breakersOn(seat, breakers),
    usage: seat.usage ?? null,
    tokens: seat.tokens ?? null,
  }));
}

/** A seat's own breakers, its models' breakers, and provider breakers on a model it serves through the same upstream. */
function breakersOn(seat: SnapshotSeat, all: readonly Breaker[]): Breaker[] {
  const models = seat.models.map((m) => m.model);
  const on = all.filter((b) =>
    b.scope === 'provider' ? b.upstream === seat.upstream && b.model !== null && models.includes(b.model) : b.seat === seat.id,
  );
  const modelRank = (b: Breaker) => {
    if (b.model === null) return -1;
    const at = models.indexOf(b.model);
    return at === -1 ? models.length : at;
  };
  const reasonRank = (b: Breaker) => TRIP_REASON_ORDER.indexOf(tripReason(b.kind, b.scope));
  return on.sort((a, b) => modelRank(a) - modelRank(b) || reasonRank(a) - reasonRank(b));
}
