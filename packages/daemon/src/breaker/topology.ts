import {
  breakerKey,
  type ChainEntryRef,
  type RouteRef,
  type Provider,
  type RouteConfig,
  type SeatAuth,
  type SeatConfig,
  seatAuth,
  upstreamIds,
} from '@routeplane/shared';

/**
 * What the engine must know about the configuration, computed once per
 * config (start and reload): each seat's upstream, the models routes name on
 * it, and for every target the keys of every breaker that could cover it, so
 * routing a request looks keys up instead of building strings.
 */

/** The keys of the breakers that can hold one target back. */
export interface TargetKeys {
  readonly seat: string;
  readonly model: string;
  readonly upstream: string;
  readonly credit: string;
  readonly keyRejected: string;
  readonly seatQuota: string;
  readonly modelQuota: string;
  readonly rateLimit: string;
  readonly providerErrors: string;
  readonly errors: string;
  /** all of the above, in TRIP_REASON_ORDER's order */
  readonly covering: readonly string[];
  /** `upstream/model`: the provider streak this target's failures count in */
  readonly providerStreak: string;
  /** `seat/model` */
  readonly label: string;
}

export interface SeatInfo {
  readonly id: string;
  readonly provider: Provider;
  readonly auth: SeatAuth;
  readonly upstream: string;
  /** every model a route names on this seat, in first-seen order */
  readonly models: readonly string[];
}

export class Topology {
  readonly seats: ReadonlyMap<string, SeatInfo>;
  readonly routes: readonly RouteRef[];
  private readonly targets = new Map<string, TargetKeys>();

  constructor(seats: readonly SeatConfig[], routes: readonly RouteConfig[]) {
    const models = new Map<string, string[]>(seats.map((s) => [s.id, []]));
    for (const route of routes) {
      for (const t of route.chain) {
        const list = models.get(t.seat);
        if (list && !list.includes(t.model)) list.push(t.model);
      }
    }
    const upstreams = upstreamIds(seats);
    this.seats = new Map(
      seats.map((s) => [
        s.id,
        { id: s.id, provider: s.provider, auth: seatAuth(s), upstream: upstreams.get(s.id) ?? '', models: models.get(s.id) ?? [] },
      ]),
    );
    this.routes = routes.map((r) => ({
      model: r.model,
      balance: r.balance ?? 'ordered',
      chain: r.chain.map((t, index): ChainEntryRef => ({ seat: t.seat, model: t.model, index, weight: t.weight ?? 1 })),
    }));
    for (const seat of this.seats.values()) for (const model of seat.models) this.target(seat.id, model);
  }

  upstreamOf = (seat: string): string => this.seats.get(seat)?.upstream ?? '';

  hasSeat(seat: string): boolean {
    return this.seats.has(seat);
  }

  hasTarget(seat: string, model: string): boolean {
    return this.seats.get(seat)?.models.includes(model) ?? false;
  }

  /** The keys of one target; built once and kept. */
  target(seat: string, model: string): TargetKeys {
    const label = `${seat}/${model}`;
    let keys = this.targets.get(label);
    if (keys === undefined) {
      keys = targetKeys(seat, model, this.upstreamOf(seat));
      this.targets.set(label, keys);
    }
    return keys;
  }
}

export function targetKeys(seat: string, model: string, upstream: string): TargetKeys {
  const credit = breakerKey('credit', { scope: 'seat', seat });
  const keyRejected = breakerKey('key_rejected', { scope: 'seat', seat });
  const seatQuota = breakerKey('quota', { scope: 'seat', seat });
  const modelQuota = breakerKey('quota', { scope: 'model', seat, model });
  const rateLimit = breakerKey('rate_limit', { scope: 'seat', seat });
  const providerErrors = breakerKey('errors', { scope: 'provider', upstream, model });
  const errors = breakerKey('errors', { scope: 'model', seat, model });
  return {
    seat,
    model,
    upstream,
    credit,
    keyRejected,
    seatQuota,
    modelQuota,
    rateLimit,
    providerErrors,
    errors,
    covering: [credit, keyRejected, seatQuota, modelQuota, rateLimit, providerErrors, errors],
    providerStreak: `${upstream}/${model}`,
    label: `${seat}/${model}`,
  };
}
