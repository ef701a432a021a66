import type { DecisionEvent, Snapshot } from '@routeplane/shared';
import { learnRouteOrders } from '../../../src/top/store/configured-order.js';
import { deriveRoutes, deriveSeats } from '../../../src/top/store/derive-view.js';
import type { MonitorState } from '../../../src/top/store/monitor-store.js';
import { hello } from './fixtures.js';

/** A MonitorState as the store would hold it after `snapshot` and `decisions`, for panel tests. */
export function stateFrom(
  snapshot: Snapshot,
  options: { decisions?: DecisionEvent[]; connection?: MonitorState['connection'] } = {},
): MonitorState {
  const now = snapshot.now;
  const h = hello(now);
  const orders = learnRouteOrders([], snapshot);
  const decisions = (options.decisions ?? []).map((event, i) => ({ n: i + 1, event }));
  return {
    now,
    connection: options.connection ?? { kind: 'live', since: now - 1000 },
    daemon: { httpUrl: h.http_url, startedAt: h.started_at, pid: h.pid, version: h.version },
    influence: snapshot.influence,
    hasSnapshot: true,
    breakers: snapshot.seats,
    orders,
    routes: deriveRoutes(orders, snapshot.seats, now, snapshot.influence.max_cooldown_secs * 1000),
    seats: deriveSeats(snapshot.seats, now, snapshot.influence.max_cooldown_secs * 1000),
    decisions,
    decisionsReceived: decisions.length,
    rates: { requestsPerSec: 2.5, failoversPerMin: 3 },
  };
}
