import type { InfluenceConfig } from './config/schema.js';
import type { TripReason, BreakerScope } from './events.js';

/** Shapes of `snapshot`, `status` and `hello` results (spec "Precise answers"). */

export type TargetState = 'healthy' | 'tripped' | 'probe_ready' | 'probing';

export interface SnapshotTarget {
  seat: string;
  model: string;
  state: TargetState;
  reasons: TripReason[];
  /** the deadline a countdown runs to: probe-ready time or rate-limit end; null when healthy. */
  until: number | null;
}

export interface SnapshotRoute {
  model: string;
  /** ordered as a request starting now would try them (before probe claims). */
  chain: SnapshotTarget[];
}

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

export interface SnapshotSeat {
  id: string;
  provider: 'anthropic' | 'openai';
  credit: BreakerState | null;
  rate_limit: RateLimitState | null;
  models: SnapshotModel[];
}

export interface Counters {
  requests: number;
  failovers: number;
  fail_open: number;
}

export interface InfluenceInfo extends InfluenceConfig {}

export interface Snapshot {
  now: number;
  influence: InfluenceInfo;
  routes: SnapshotRoute[];
  seats: SnapshotSeat[];
  counters: Counters;
}

export interface OpenBreaker {
  scope: BreakerScope;
  seat: string;
  model: string | null;
  reason: TripReason;
  refused_count: number;
  until: number;
}

export interface StatusSummary {
  now: number;
  open: OpenBreaker[];
}

export interface HelloResult {
  version: string;
  pid: number;
  started_at: number;
  http_url: string;
  influence: InfluenceInfo;
}

export interface ResetResult {
  cleared: number;
}
