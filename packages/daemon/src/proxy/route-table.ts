import { type Balance, type DecisionChainEntry, type Family, upstreamOf } from '@routeplane/shared';
import { type TargetKeys, targetKeys } from '../breaker/topology.js';
import type { PlanEntry } from '../breaker/types.js';
import type { DaemonContext } from '../context.js';
import { seatHeaders, type SeatHeaders } from './headers.js';
import { encodeModel } from './model-swap.js';
import { parseUpstreamBase, type UpstreamBase } from './upstream-url.js';

/**
 * Everything about routes a request needs, computed once at start so the hot
 * path does no config work: per route and per family, the targets of that
 * family (what the breaker orders) and the skipped ones (for the decision).
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
  /** the keys of every breaker that can hold it back */
  readonly keys: TargetKeys;
  /** position in the configured chain (both families counted) */
  readonly index: number;
}

export interface FamilyChain {
  /** in configured order; `plan()` is given `entries`, and a planned `index` finds its target in `byIndex` */
  readonly targets: readonly PreparedTarget[];
  readonly entries: readonly PlanEntry[];
  readonly byIndex: ReadonlyMap<number, PreparedTarget>;
  /** the other family's targets: in the decision's chain, never attempted */
  readonly skipped: readonly DecisionChainEntry[];
}

export interface PreparedRoute {
  readonly name: string;
  readonly balance: Balance;
  readonly anthropic: FamilyChain;
  readonly openai: FamilyChain;
}

export function prepareRoutes(ctx: DaemonContext): Map<string, PreparedRoute> {
  const perSeat = new Map<string, { upstream: UpstreamBase; headers: SeatHeaders; family: Family; upstreamId: string }>();
  for (const seat of ctx.seats.values()) {
    perSeat.set(seat.id, {
      upstream: parseUpstreamBase(seat.base_url),
      headers: seatHeaders(seat),
      family: seat.provider,
      upstreamId: upstreamOf(seat.base_url),
    });
  }
  const table = new Map<string, PreparedRoute>();
  for (const [name, route] of ctx.routes) {
    const chainFor = (family: Family): FamilyChain => {
      const targets: PreparedTarget[] = [];
      const skipped: DecisionChainEntry[] = [];
      route.chain.forEach((ref, index) => {
        const seat = perSeat.get(ref.seat);
        if (seat === undefined) throw new Error(`route ${name}: unknown seat ${ref.seat}`);
        if (seat.family !== family) {
          skipped.push({ seat: ref.seat, model: ref.model, state: 'skipped', reason: 'protocol', pinned: false, left_ms: null });
          return;
        }
        targets.push({
          seat: ref.seat,
          model: ref.model,
          label: `${ref.seat}/${ref.model}`,
          modelJson: encodeModel(ref.model),
          upstream: seat.upstream,
          headers: seat.headers,
          keys: targetKeys(ref.seat, ref.model, seat.upstreamId),
          index,
        });
      });
      return {
        targets,
        entries: targets.map((t) => ({ keys: t.keys, index: t.index })),
        byIndex: new Map(targets.map((t) => [t.index, t])),
        skipped,
      };
    };
    table.set(name, { name, balance: route.balance, anthropic: chainFor('anthropic'), openai: chainFor('openai') });
  }
  return table;
}
