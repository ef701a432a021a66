import type { DecisionEvent, Snapshot } from '@routeplane/shared';
import { modelOf } from '../../../src/top/store/daemon-model.js';
import { routeViews, seatViews } from '../../../src/top/store/derive-view.js';
import type { MonitorState } from '../../../src/top/store/monitor-state.js';

/** A MonitorState as the store would hold it after `snapshot` and `decisions`, for panel tests. */
export function stateFrom(
  snapshot: Snapshot,
  options: {
    decisions?: DecisionEvent[];
    connection?: MonitorState['connection'];
    activity?: MonitorState['activity'];
    shares?: MonitorState['shares'];
    sessions?: MonitorState['sessions'];
  } = {},
): MonitorState {
  const now = snapshot.now;
  const model = modelOf(snapshot);
  const decisions = (options.decisions ?? []).map((event) => ({ id: event.request_id, event }));
  return {
    now,
    connection: options.connection ?? { kind: 'live', since: now - 1000 },
    daemon: { httpUrl: 'http://127.0.0.1:4141', startedAt: now - 312_000, pid: 4242, version: '0.2.0' },
    influence: snapshot.influence,
    hasSnapshot: true,
    seq: snapshot.seq,
    routes: routeViews(model),
    seats: seatViews(model),
    store: snapshot.store,
    decisions,
    decisionsReceived: decisions.length,
    rates: { requestsPerSec: 2.5, failoversPerMin: 3, backgroundPerMin: 0, skippedPerMin: 0 },
    activity: options.activity ?? new Map(),
    shares: options.shares ?? new Map(),
    sessions: options.sessions ?? [],
  };
}
