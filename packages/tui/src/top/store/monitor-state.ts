import type { DaemonEvent, DecisionEvent, HelloResult, InfluenceInfo, Snapshot, StoreInfo } from '@routeplane/shared';
import type { RouteView, SeatView } from './derive-view.js';
import type { Rates } from './rates.js';
import type { SeatActivity } from './seat-activity.js';
import type { SessionView } from './session-list.js';
import type { RouteShares } from './session-shares.js';

/** What the monitor knows at one moment: the store's state, read by every panel. */
export type ConnectionState =
  /** no daemon yet at `path`: top waits for one to appear */
  | { readonly kind: 'waiting'; readonly path: string }
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live'; readonly since: number }
  /** `since`: when the connection was lost — what is on screen is as of then */
  | { readonly kind: 'disconnected'; readonly reason: string; readonly retryAt: number | null; readonly since: number };

export interface DaemonInfo {
  readonly httpUrl: string;
  readonly startedAt: number;
  readonly pid: number;
  readonly version: string;
}

export interface DecisionEntry {
  /** the decision's request id: one entry per decision, whether it came live or from `recent` */
  readonly id: string;
  readonly event: DecisionEvent;
}

export interface MonitorState {
  /** the shared tick's time */
  readonly now: number;
  readonly connection: ConnectionState;
  readonly daemon: DaemonInfo | null;
  readonly influence: InfluenceInfo | null;
  readonly hasSnapshot: boolean;
  /** the `seq` of the last event folded into routes and seats (the snapshot's until one is) */
  readonly seq: number;
  readonly routes: readonly RouteView[];
  readonly seats: readonly SeatView[];
  /** where the daemon keeps breakers; null before a snapshot */
  readonly store: StoreInfo | null;
  /** oldest first, at most `decisionCapacity` */
  readonly decisions: readonly DecisionEntry[];
  readonly decisionsReceived: number;
  readonly rates: Rates;
  /** each seat's attempts over the last 2 minutes, for its sparkline */
  readonly activity: ReadonlyMap<string, SeatActivity>;
  /** spread routes: each target's share of the route's sessions over the last 5 minutes */
  readonly shares: RouteShares;
  /** the sessions seen in the last 10 minutes, the most recently seen first */
  readonly sessions: readonly SessionView[];
}

/** Everything that changes the state goes through one queue, so it lands in arrival order. */
export type Incoming =
  | { readonly kind: 'snapshot'; readonly snapshot: Snapshot }
  | { readonly kind: 'event'; readonly event: DaemonEvent }
  /** the daemon's most recent decisions (`recent`), oldest first: the log's history on attach */
  | { readonly kind: 'backfill'; readonly decisions: readonly DecisionEvent[] }
  | { readonly kind: 'hello'; readonly hello: HelloResult }
  | { readonly kind: 'connection'; readonly connection: ConnectionState };

/** The time countdowns are read at: the tick while live, the moment it was lost while disconnected (they stop, stale). */
export function countdownClock(state: Pick<MonitorState, 'now' | 'connection'>): { now: number; stale: boolean } {
  return state.connection.kind === 'disconnected' ? { now: state.connection.since, stale: true } : { now: state.now, stale: false };
}
