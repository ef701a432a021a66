import type { DecisionChainEntry, Family } from '@routeplane/shared';
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
}

export interface FamilyChain {
  /** in configured order; `plan()` is given `refs`, and a planned `index` points back here */
  readonly targets: readonly PreparedTarget[];
  readonly refs: ReadonlyArray<{ seat: string; model: string }>;
  /** the other family's targets: in the decision's chain, never attempted */
  readonly skipped: readonly DecisionChainEntry[];
}

export interface PreparedRoute {
  readonly name: string;
  readonly anthropic: FamilyChain;
  readonly openai: FamilyChain;
}

export function prepareRoutes(ctx: DaemonContext): Map<string, PreparedRoute> {
  const perSeat = new Map<string, { upstream: UpstreamBase; headers: SeatHeaders; family: Family }>();
  for (const seat of ctx.seats.values()) {
    perSeat.set(seat.id, { upstream: parseUpstreamBase(seat.base_url), headers: seatHeaders(seat), family: seat.provider });
  }
  const table = new Map<string, PreparedRoute>();
  for (const [name, route] of ctx.routes) {
    const chainFor = (family: Family): FamilyChain => {
      const targets: PreparedTarget[] = [];
      const skipped: DecisionChainEntry[] = [];
      for (const ref of route.chain) {
        const seat = perSeat.get(ref.seat);
        if (seat === undefined) throw new Error(`route ${name}: unknown seat ${ref.seat}`);
        if (seat.family !== family) {
          skipped.push({ seat: ref.seat, model: ref.model, state: 'skipped', reason: 'protocol' });
          continue;
        }
        targets.push({
          seat: ref.seat,
          model: ref.model,
          label: `${ref.seat}/${ref.model}`,
          modelJson: encodeModel(ref.model),
          upstream: seat.upstream,
          headers: seat.headers,
        });
      }
      return { targets, refs: targets.map((t) => ({ seat: t.seat, model: t.model })), skipped };
    };
    table.set(name, { name, anthropic: chainFor('anthropic'), openai: chainFor('openai') });
  }
  return table;
}
