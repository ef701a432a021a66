import type { DaemonEvent, DecisionEvent, HelloResult, InfluenceInfo, Snapshot } from '@routeplane/shared';
import type { BreakerModel } from './breaker-model.js';
import type { RouteOrders } from './configured-order.js';
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
  readonly now: number;
  readonly connection: ConnectionState;
  readonly daemon: DaemonInfo | null;
  readonly influence: InfluenceInfo | null;
  readonly hasSnapshot: boolean;
  readonly breakers: BreakerModel;
  readonly orders: RouteOrders;
  readonly routes: readonly RouteView[];
  readonly seats: readonly SeatView[];
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
