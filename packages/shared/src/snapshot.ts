import type { Breaker, BreakerScope, BreakerKind, BreakerPhase, Signal, TripReason } from './breaker/breaker.js';
import type { TargetState } from './breaker/target-state.js';
import type { Balance, Lane } from './events.js';
import type { StoreInfo } from './store-info.js';
import type { SeatUsage, UsageWindow } from './usage-window.js';
import type { InfluenceConfig, SeatAuth } from './config/schema.js';

/** Shapes of `snapshot`, `status` and `hello` results. */

export interface SnapshotTarget {
  seat: string;
  model: string;
  /** position in the configured chain, from 0 */
  index: number;
  /** 1 when not configured; 0 drains the target */
  weight: number;
  state: TargetState;
  reasons: TripReason[];
  /** the deadline a countdown runs to: probe-ready time, rate-limit or quota end; null when healthy. */
  until: number | null;
}

export interface SnapshotRoute {
  model: string;
  balance: Balance;
  /** ordered as a request starting now would try them (before probe claims), from the configured order. */
  chain: SnapshotTarget[];
}

/** v1's view of a breaker with a cooldown and a probe. */
export interface BreakerState {
  tripped_at: number;
  cooldown_ms: number;
  probe_ready_at: number;
  failed_probes: number;
  refused_count: number;
  /** when the in-flight probe was claimed; null when no probe is in flight. */
  claimed_at: number | null;
}

export interface RateLimitState {
  since: number;
  until: number;
  refused_count: number;
}

export interface SnapshotModel {
  model: string;
  streak: number;
  breaker: BreakerState | null;
}

/**
 * The tokens the upstreams reported for a seat's answers since the daemon
 * started, summed over its models (`status`, `top` and `/metrics` sum it per
 * seat; `/metrics` keeps it per model too, as `routeplane_tokens_total`). Each count adds what the
 * answers that reported it said; an answer without usage adds nothing.
 * `cache_read` is as the provider counts it: Anthropic's is apart from
 * `input`, OpenAI's `cached_tokens` is part of it.
 */
export interface SeatTokens {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface SnapshotSeat {
  id: string;
  provider: 'anthropic' | 'openai';
  /** how it proves who it is; `passthrough`: the agent's own login */
  auth: SeatAuth;
  /** the seat's base URL without a trailing `/`: seats that share it share a provider layer */
  upstream: string;
  credit: BreakerState | null;
  rate_limit: RateLimitState | null;
  models: SnapshotModel[];
  usage: SeatUsage | null;
  /**
   * Tokens reported for this seat's answers up to `seq` (a decision after it
   * adds its `usage` to `served_by`'s seat). Optional: a daemon from before
   * it sends none, and a client reads that as unknown, not as zero.
   */
  tokens?: SeatTokens;
}

export interface Counters {
  requests: number;
  failovers: number;
  fail_open: number;
}

export interface InfluenceInfo extends InfluenceConfig {}

export interface Snapshot {
  /** the seq of the last event already reflected here; 0 before any event */
  seq: number;
  now: number;
  influence: InfluenceInfo;
  routes: SnapshotRoute[];
  seats: SnapshotSeat[];
  /** every active breaker, whatever its kind */
  breakers: Breaker[];
  counters: Counters;
  store: StoreInfo;
}

export interface OpenBreaker {
  scope: BreakerScope;
  seat: string | null;
  model: string | null;
  reason: TripReason;
  refused_count: number;
  until: number | null;
  key: string;
  kind: BreakerKind;
  phase: BreakerPhase;
  skipped_count: number;
  reset_at: number | null;
  signal: Signal | null;
}

export interface DaemonIdentity {
  version: string;
  pid: number;
  started_at: number;
  http_url: string;
  config_path: string | null;
  store: StoreInfo;
}

export interface StatusSummary {
  now: number;
  daemon: DaemonIdentity;
  counters: Counters;
  open: OpenBreaker[];
  /** every configured seat's tokens (SeatTokens), by seat id; optional: a daemon from before it sends none */
  tokens?: Record<string, SeatTokens>;
  /** every configured seat's usage windows, as the snapshot has them; optional: a daemon from before it sends none */
  seats?: StatusSeat[];
}

export interface StatusSeat {
  id: string;
  provider: 'anthropic' | 'openai';
  /** how the seat proves who it is; `passthrough` is the agent's own login */
  auth: SeatAuth;
  usage: SeatUsage | null;
}

export interface HelloResult {
  version: string;
  protocol: 2;
  pid: number;
  started_at: number;
  http_url: string;
  influence: InfluenceInfo;
  /** `hostname:pid` */
  daemon_id: string;
  store: StoreInfo;
  /** breakers restored from `influence.state_file` at start */
  restored: number;
  config_path: string | null;
}

export interface ResetResult {
  cleared: number;
}

export interface ProbeResult {
  made_ready: number;
}

export type { Lane };

export type { StoreInfo };

export type { SeatUsage, UsageWindow };
