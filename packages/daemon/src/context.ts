import type { Config, ControlError, Counters, Provider, ReloadResult } from '@routeplane/shared';
import type { ResolvedSeat } from './credentials.js';
import type { BreakerStore } from './breaker/store.js';
import type { ReloadableInfluence } from './breaker/reloadable.js';
import type { Clock } from './breaker/types.js';
import type { EventBus } from './events/bus.js';
import type { UsageBook } from './usage/usage-book.js';
import type { DaemonMetrics } from './metrics/daemon-metrics.js';
import type { Routing } from './proxy/routing.js';
import type { RecentDecisions } from './events/recent-decisions.js';

/**
 * Everything a request needs, computed once at start so the hot path does no
 * config work. Shared by the HTTP app, the control server and the timers.
 */
export interface DaemonContext {
  /** the config as last (re)loaded; a reload replaces it, the seats, the secrets and the routing together */
  config: Config;
  seats: ReadonlyMap<string, ResolvedSeat>;
  /** the prepared routes, aliases and agent tokens; a request reads it once when it starts */
  routing: Routing;
  readonly bus: EventBus;
  readonly influence: ReloadableInfluence;
  readonly counters: Counters;
  readonly clock: Clock;
  readonly startedAt: number;
  /** filled in once the HTTP server listens */
  httpUrl: string;
  /** every secret value, for last-line-of-defence redaction in logs (a reload only ever adds to it) */
  secrets: readonly string[];
  /** `hostname:pid` */
  readonly daemonId: string;
  readonly store: BreakerStore;
  /** the config file this daemon was started with, when it came from one */
  readonly configPath: string | null;
  /** breakers restored from `influence.state_file` at start */
  restored: number;
  /** each seat's last usage windows */
  readonly usage: UsageBook;
  readonly recent: RecentDecisions;
  /** what `/metrics` exposes (set right after the context is built: it reads the context) */
  metrics: DaemonMetrics;
  /** re-reads the config file */
  reload(): ReloadOutcome;
}

export type { Provider };

export type { ResolvedSeat };

/** A reload applied (what changed), or refused (the config lines that say why). */
export type ReloadOutcome = { ok: true; result: ReloadResult } | { ok: false; error: ControlError };
