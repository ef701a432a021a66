import {
  type Breaker,
  breakersNamedBy,
  covers,
  orderChain,
  projectChain,
  type Balance,
  type SeatTokens,
  type SeatUsage,
  type SnapshotSeat,
  type SnapshotTarget,
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
  /** `seat/model` → the other daemon whose transition holds it back (a shared store), when one does */
  readonly from: ReadonlyMap<string, string>;
}

export interface SeatView {
  readonly id: string;
  readonly provider: SnapshotSeat['provider'];
  /** how it proves who it is; null from a daemon that does not say */
  readonly auth: SnapshotSeat['auth'] | null;
  /** the seat's upstream and the models routes name on it: what a reset or probe of it names (`namedByCommand`) */
  readonly upstream: string;
  readonly models: readonly string[];
  /** seat-wide breakers first, then each model's (its provider layer's first), in the seat's model order */
  readonly breakers: readonly Breaker[];
  /** the usage windows the provider last reported */
  readonly usage: SeatUsage | null;
  /** the tokens its answers reported so far; null (or absent) when the daemon does not say */
  readonly tokens?: SeatTokens | null;
}

/** `self`: this daemon's id (`hello.daemon_id`); transitions it made itself need no "from". */
export function routeViews(model: DaemonModel, self: string | null = null): RouteView[] {
  const upstreams = new Map(model.seats.map((s) => [s.id, s.upstream]));
  const upstreamOf = (seat: string) => upstreams.get(seat) ?? '';
  const breakers = [...model.breakers.values()];
  const foreign = self === null ? [] : breakers.filter((b) => (model.origins.get(b.key) ?? self) !== self);
  const probesClaimable = model.store.state === 'ok';
  return model.routes.map((route) => {
    const chain = projectChain(route.chain, breakers, upstreamOf, probesClaimable);
    const tried = chain.filter((e) => e.state !== 'drained');
    const from = new Map<string, string>();
    for (const e of tried) {
      if (e.state === 'healthy') continue;
      const by = foreign.find((b) => covers(b, { seat: e.seat, model: e.model, upstream: upstreamOf(e.seat) }));
      if (by) from.set(`${e.seat}/${e.model}`, model.origins.get(by.key)!);
    }
    return {
      route: route.model,
      balance: route.balance,
      chain,
      failOpen: orderChain(tried, (e) => usableInForeground(e.state, probesClaimable)).failOpen,
      from,
    };
  });
}

export function seatViews(model: DaemonModel): SeatView[] {
  const breakers = [...model.breakers.values()];
  return model.seats.map((seat) => ({
    id: seat.id,
    provider: seat.provider,
    auth: seat.auth ?? null,
    upstream: seat.upstream,
    models: seat.models.map((m) => m.model),
    breakers: breakersOn(seat, breakers),
    usage: seat.usage ?? null,
    tokens: seat.tokens ?? null,
  }));
}

/** What a reset of the seat names, seat-wide first: its own breakers, its models' breakers, and provider breakers on a model it serves through its upstream. */
function breakersOn(seat: SnapshotSeat, all: readonly Breaker[]): Breaker[] {
  return breakersNamedBy(all, { id: seat.id, upstream: seat.upstream, models: seat.models.map((m) => m.model) });
}
