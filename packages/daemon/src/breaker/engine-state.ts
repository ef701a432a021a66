import type { InfluenceConfig } from '@routeplane/shared';
import type { BreakerStore } from './store.js';
import type { Streaks } from './streaks.js';
import type { BreakerTable } from './table.js';
import type { Topology } from './topology.js';
import type { Clock } from './types.js';

/** The influence settings as the engine uses them, in milliseconds. */
export interface Limits {
  readonly baseCooldownMs: number;
  readonly maxCooldownMs: number;
  readonly maxQuotaMs: number;
  readonly windowMs: number;
  readonly tripThreshold: number;
  readonly tripOnRejectedKey: boolean;
}

export function limitsOf(cfg: InfluenceConfig): Limits {
  const maxCooldownMs = cfg.max_cooldown_secs * 1000;
  return {
    maxCooldownMs,
    baseCooldownMs: Math.min(cfg.cooldown_secs * 1000, maxCooldownMs),
    maxQuotaMs: (cfg.max_quota_secs ?? 604_800) * 1000,
    windowMs: cfg.window_secs * 1000,
    tripThreshold: cfg.trip_threshold,
    tripOnRejectedKey: cfg.trip_on_rejected_key ?? true,
  };
}

/** Everything the engine's parts share: one object, passed to each part's functions. */
export interface EngineState {
  limits: Limits;
  topology: Topology;
  readonly clock: Clock;
  readonly table: BreakerTable;
  readonly streaks: Streaks;
  readonly store: BreakerStore;
  /** this daemon's id: probe claim tokens are `origin#claimId` */
  readonly origin: string;
  nextClaimId: number;
}
