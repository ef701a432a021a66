import {
  type Balance,
  type DecisionChainEntry,
  type Family,
  type LaneName,
  orderingPrice,
  type Price,
  type RetryConfig,
  type RouteConfig,
  upstreamIds,
} from '@routeplane/shared';
import { type TargetKeys, targetKeys } from '../breaker/topology.js';
import type { PlanEntry } from '../breaker/types.js';
import type { ResolvedSeat } from '../credentials.js';
import type { PinChainEntry } from '../policy/pins.js';
import { prepareRendezvous, type Rendezvous } from '../policy/rendezvous.js';
import { type SeatHeaders, seatHeaders } from './seat-headers.js';
import { encodeModel } from './model-swap.js';
import { parseUpstreamBase, type UpstreamBase } from './upstream-url.js';

/**
 * Everything about routes a request needs, computed once per config (start
 * and reload) so the hot path does no config work: per route and per
 * family, the targets that may be tried (what the breaker orders), the
 * skipped ones (the other family, drained), and the route's policy.
 */
export interface PreparedTarget {
  readonly seat: string;
  readonly model: string;
  /** `seat/model`, as people read it and as `x-routeplane-target` carries it */
  readonly label: string;
  /** the model as the JSON string spliced into the body */
  readonly modelJson: Buffer;
  readonly upstream: UpstreamBase;
  readonly headers: SeatHeaders;
  /** the seat is the agent's own login (`auth: passthrough`): a request without credentials cannot go there */
  readonly login: boolean;
  /** `extra_usage: avoid`: an answer billed past the plan trips the seat's quota */
  readonly avoidExtraUsage: boolean;
  /** the keys of every breaker that can hold it back */
  readonly keys: TargetKeys;
  /** position in the configured chain (both families counted) */
  readonly index: number;
  readonly weight: number;
  readonly costPerMtok: number | null;
  /** its own price, else its seat's; what its decisions' cost is computed from */
  readonly price: Price | null;
}

export interface FamilyChain {
  /** routable targets of the family (weight > 0), in configured order */
  readonly targets: readonly PreparedTarget[];
  /** the same as plan entries, in configured order */
  readonly entries: readonly PlanEntry[];
  readonly byIndex: ReadonlyMap<number, PreparedTarget>;
  /** never tried: the other family's targets and drained ones, in configured order (for the decision) */
  readonly skipped: readonly DecisionChainEntry[];
  /** each skipped entry's position in the configured chain */
  readonly skippedAt: readonly number[];
  /** the family has targets, but every one is drained */
  readonly allDrained: boolean;
  /** `balance: spread` */
  readonly rendezvous: Rendezvous | null;
  /** `balance: cost`: declared cost ascending (else input + output price), undeclared last, ties in configured order */
  readonly byCost: readonly PlanEntry[] | null;
}

export interface PreparedRoute {
  readonly name: string;
  readonly balance: Balance;
  readonly lane: LaneName | null;
  readonly retry: RetryConfig | null;
  readonly anthropic: FamilyChain;
  readonly openai: FamilyChain;
  /** every configured entry with its seat's family, for pin checks */
  readonly pinChain: readonly PinChainEntry[];
}

interface SeatWire {
  upstream: UpstreamBase;
  headers: SeatHeaders;
  avoidExtraUsage: boolean;
  family: Family;
  upstreamId: string;
  price: Price | null;
}

export function prepareRoutes(
  seats: ReadonlyMap<string, ResolvedSeat>,
  routes: ReadonlyMap<string, RouteConfig>,
): Map<string, PreparedRoute> {
  const perSeat = new Map<string, SeatWire>();
  const upstreams = upstreamIds([...seats.values()]);
  for (const seat of seats.values()) {
    perSeat.set(seat.id, {
      upstream: parseUpstreamBase(seat.base_url, seat.api_path),
      headers: seatHeaders(seat),
      avoidExtraUsage: seat.extra_usage === 'avoid',
      family: seat.provider,
      upstreamId: upstreams.get(seat.id) ?? '',
      price: seat.price,
    });
  }
  const table = new Map<string, PreparedRoute>();
  for (const [name, route] of routes) {
    const wireOf = (seat: string): SeatWire => {
      const wire = perSeat.get(seat);
      if (wire === undefined) throw new Error(`route ${name}: unknown seat ${seat}`);
      return wire;
    };
    table.set(name, {
      name,
      balance: route.balance,
      lane: route.lane,
      retry: route.retry,
      anthropic: chainFor(route, 'anthropic', wireOf),
      openai: chainFor(route, 'openai', wireOf),
      pinChain: route.chain.map((ref) => ({ seat: ref.seat, model: ref.model, weight: ref.weight, family: wireOf(ref.seat).family })),
    });
  }
  return table;
}

function chainFor(route: RouteConfig, family: Family, wireOf: (seat: string) => SeatWire): FamilyChain {
  const targets: PreparedTarget[] = [];
  const skipped: DecisionChainEntry[] = [];
  const skippedAt: number[] = [];
  let ofFamily = 0;
  route.chain.forEach((ref, index) => {
    const seat = wireOf(ref.seat);
    const skip = (reason: 'protocol' | 'drained'): void => {
      skipped.push({ seat: ref.seat, model: ref.model, state: 'skipped', reason, pinned: false, left_ms: null });
      skippedAt.push(index);
    };
    if (seat.family !== family) {
      skip('protocol');
      return;
    }
    ofFamily++;
    if (ref.weight === 0) {
      skip('drained');
      return;
    }
    targets.push({
      seat: ref.seat,
      model: ref.model,
      label: `${ref.seat}/${ref.model}`,
      modelJson: encodeModel(ref.model),
      upstream: seat.upstream,
      headers: seat.headers,
      login: seat.headers.auth === 'passthrough',
      avoidExtraUsage: seat.avoidExtraUsage,
      keys: targetKeys(ref.seat, ref.model, seat.upstreamId),
      index,
      weight: ref.weight,
      costPerMtok: ref.cost_per_mtok,
      price: ref.price ?? seat.price,
    });
  });
  const entries: PlanEntry[] = targets.map((t) => ({ keys: t.keys, index: t.index }));
  const costOf = (t: PreparedTarget) => t.costPerMtok ?? (t.price === null ? Number.POSITIVE_INFINITY : orderingPrice(t.price));
  const byCost =
    route.balance === 'cost'
      ? targets
          .map((t, i) => ({ t, i }))
          .sort((a, b) => costOf(a.t) - costOf(b.t) || a.i - b.i)
          .map(({ t }) => entries[targets.indexOf(t)]!)
      : null;
  return {
    targets,
    entries,
    byIndex: new Map(targets.map((t) => [t.index, t])),
    skipped,
    skippedAt,
    allDrained: ofFamily > 0 && targets.length === 0,
    rendezvous:
      route.balance === 'spread' ? prepareRendezvous(targets.map((t) => ({ seat: t.seat, model: t.model, weight: t.weight }))) : null,
    byCost,
  };
}
