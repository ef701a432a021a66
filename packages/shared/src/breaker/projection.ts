import type { BreakerEvent } from '../events.js';
import type { SnapshotRoute, SnapshotTarget } from '../snapshot.js';
import type { Breaker } from './breaker.js';
import { orderChain, usableInForeground } from './chain-order.js';
import { covers } from './coverage.js';
import { entryState } from './target-state.js';

/**
 * The snapshot's `routes[].chain` from the configured chains and the active
 * breakers: what the daemon answers and what the monitor recomputes after
 * each breaker event, with the same rules. Pure.
 */

/** A configured chain entry: where it sits and what it weighs. */
export interface ChainEntryRef {
  seat: string;
  model: string;
  index: number;
  weight: number;
}

export interface RouteRef {
  model: string;
  balance: SnapshotRoute['balance'];
  /** in configured order */
  chain: readonly ChainEntryRef[];
}

/** seat id → its upstream (base URL without trailing `/`) */
export type UpstreamOf = (seat: string) => string;

/** `probesClaimable`: false while the breaker store is degraded (the snapshot's `store.state`). */
export function projectChain(
  chain: readonly ChainEntryRef[],
  breakers: Iterable<Breaker>,
  upstreamOf: UpstreamOf,
  probesClaimable = true,
): SnapshotTarget[] {
  const all = [...breakers];
  const entries: SnapshotTarget[] = [];
  const drained: SnapshotTarget[] = [];
  for (const ref of [...chain].sort((a, b) => a.index - b.index)) {
    const identity = { seat: ref.seat, model: ref.model, upstream: upstreamOf(ref.seat) };
    const view = entryState(
      ref.weight,
      all.filter((b) => covers(b, identity)),
    );
    const entry: SnapshotTarget = { seat: ref.seat, model: ref.model, index: ref.index, weight: ref.weight, ...view };
    (view.state === 'drained' ? drained : entries).push(entry);
  }
  return orderChain(entries, (e) => usableInForeground(e.state, probesClaimable)).ordered.concat(drained);
}

export function projectRoutes(
  routes: readonly RouteRef[],
  breakers: Iterable<Breaker>,
  upstreamOf: UpstreamOf,
  probesClaimable = true,
): SnapshotRoute[] {
  const all = [...breakers];
  return routes.map((r) => ({ model: r.model, balance: r.balance, chain: projectChain(r.chain, all, upstreamOf, probesClaimable) }));
}

/** The configured chain behind a snapshot route (its entries carry `index` and `weight`). */
export function routeRefOf(route: SnapshotRoute): RouteRef {
  return {
    model: route.model,
    balance: route.balance,
    chain: route.chain.map(({ seat, model, index, weight }) => ({ seat, model, index, weight })),
  };
}

/** Applies one breaker event to a key → Breaker map: the event carries the whole breaker, or null when it ended. */
export function applyBreakerEvent(breakers: Map<string, Breaker>, event: BreakerEvent): void {
  if (event.breaker === null) breakers.delete(event.key);
  else breakers.set(event.key, event.breaker);
}
