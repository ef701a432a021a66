import type { Config, Counters, Provider, RouteConfig, SeatConfig } from '@routeplane/shared';
import type { EventBus } from './events/bus.js';
import type { Clock, Influence } from './breaker/types.js';

/** A seat with its key resolved once at start (never logged, never echoed). */
export interface ResolvedSeat extends SeatConfig {
  readonly apiKey: string;
}

/**
 * Everything a request needs, computed once at start so the hot path does no
 * config work. Shared by the HTTP app, the control server and the timers.
 */
export interface DaemonContext {
  readonly config: Config;
  readonly seats: ReadonlyMap<string, ResolvedSeat>;
  /** own-property lookup only: `__proto__` is just an unknown route. */
  readonly routes: ReadonlyMap<string, RouteConfig>;
  readonly authToken: string | null;
  readonly bus: EventBus;
  readonly influence: Influence;
  readonly counters: Counters;
  /** bytes of agent request bodies read so far (what `startHeapTuning` watches) */
  readonly received: { bodyBytes: number };
  readonly clock: Clock;
  readonly startedAt: number;
  /** filled in once the HTTP server listens */
  httpUrl: string;
  /** every secret value, for last-line-of-defence redaction in logs */
  readonly secrets: readonly string[];
}

export type { Provider };
