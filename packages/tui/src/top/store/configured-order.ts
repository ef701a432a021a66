import type { Snapshot, TargetRef } from '@routeplane/shared';

/**
 * Each route's configured chain order, as well as the monitor can know it.
 *
 * The daemon only tells us the order a request would try *now*: healthy
 * targets first, tripped ones after, each group in configured order, and the
 * configured order itself when every target is tripped (fail open). So a
 * snapshot reveals the configured order exactly when a route's targets are
 * all healthy or all tripped, which is the case whenever nothing is wrong
 * and right after a daemon (re)start. We remember such an exact order; until
 * we have one we use the current order, which is right within each group.
 * A breaker event placed with an inexact order may be off by a position until
 * the snapshot that every breaker event schedules arrives (≤ 1 s).
 */
export interface RouteOrder {
  readonly route: string;
  readonly targets: readonly TargetRef[];
  readonly exact: boolean;
}

export type RouteOrders = readonly RouteOrder[];

export function learnRouteOrders(previous: RouteOrders, snapshot: Snapshot): RouteOrders {
  return snapshot.routes.map((route) => {
    const current = route.chain.map(({ seat, model }) => ({ seat, model }));
    const healthy = route.chain.filter((t) => t.state === 'healthy').length;
    if (healthy === 0 || healthy === route.chain.length) {
      return { route: route.model, targets: current, exact: true };
    }
    const known = previous.find((o) => o.route === route.model);
    if (known?.exact && sameTargets(known.targets, current)) return known;
    return { route: route.model, targets: current, exact: false };
  });
}

function sameTargets(a: readonly TargetRef[], b: readonly TargetRef[]): boolean {
  if (a.length !== b.length) return false;
  const key = (t: TargetRef) => `${t.seat}/${t.model}`;
  const set = new Set(a.map(key));
  return b.every((t) => set.has(key(t)));
}
