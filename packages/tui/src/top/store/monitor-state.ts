import type { DaemonEvent, DecisionEvent, HelloResult, InfluenceInfo, Snapshot, StoreInfo } from '@routeplane/shared';
import type { RouteView, SeatView } from './derive-view.js';
import type { Rates } from './rates.js';

/** What the monitor knows at one moment: the store's state, read by every panel. */
export type ConnectionState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live'; readonly since: number }
  | { readonly kind: 'disconnected'; readonly reason: string; readonly retryAt: number | null };

export interface DaemonInfo {
  readonly httpUrl: string;
  readonly startedAt: number;
  readonly pid: number;
  readonly version: string;
}

export interface DecisionEntry {
  /** 1 for the first decision this monitor received, increasing */
  readonly n: number;
  readonly event: DecisionEvent;
}

export interface MonitorState {
  /** the shared tick's time: every countdown on screen is `until - now` */
  readonly now: number;
  readonly connection: ConnectionState;
  readonly daemon: DaemonInfo | null;
  readonly influence: InfluenceInfo | null;
  readonly hasSnapshot: boolean;
  /** the `seq` of the last event folded into routes and seats (the snapshot's until one is) */
  readonly seq: number;
  readonly routes: readonly RouteView[];
  readonly seats: readonly SeatView[];
  /** where the daemon keeps breakers (spec/shared-state.md); null before a snapshot */
  readonly store: StoreInfo | null;
  /** oldest first, at most `decisionCapacity` */
  readonly decisions: readonly DecisionEntry[];
  readonly decisionsReceived: number;
  readonly rates: Rates;
}

/** Everything that changes the state goes through one queue, so it lands in arrival order. */
export type Incoming =
  | { readonly kind: 'snapshot'; readonly snapshot: Snapshot }
  | { readonly kind: 'event'; readonly event: DaemonEvent }
  | { readonly kind: 'hello'; readonly hello: HelloResult }
  | { readonly kind: 'connection'; readonly connection: ConnectionState };
