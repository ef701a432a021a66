import type { BreakerEvent, ChainEntryState, Counters, Snapshot, SnapshotTarget, StatusSummary, TripReason } from '@routeplane/shared';

/** Injected time source: breaker logic never reads the wall clock itself. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A target as a request will try it. */
export interface PlannedTarget {
  seat: string;
  model: string;
  /** position in the configured chain */
  index: number;
  state: Exclude<ChainEntryState, 'skipped'>;
  reason: TripReason | null;
}

/** A request's chain, fixed when it starts. */
export interface Plan {
  targets: PlannedTarget[];
  failOpen: boolean;
  /** opaque to callers; released by `finish`. */
  readonly claims: ReadonlyArray<unknown>;
}

/** What one upstream attempt says about health (the seed's three signals). */
export type Evidence =
  | { kind: 'success' }
  | { kind: 'credit' }
  | { kind: 'rate_limit'; retryAfterMs: number | null }
  | { kind: 'model_failure' }
  /** 401/403/other 4xx/aborted: no verdict; a probe claim on the target is released. */
  | { kind: 'none' };

export type BreakerChange = Omit<BreakerEvent, 'seq' | 'ts'>;

export type ResetOutcome =
  | { ok: true; cleared: number }
  | { ok: false; code: 'influence_disabled' | 'unknown_seat' | 'unknown_target'; message: string };

/**
 * The routing-influence engine. Pure: takes a clock, reports changes through
 * `onChange`, and never touches I/O. The daemon drives `fireTimers` when
 * `nextTimerAt` comes due so probe-ready events go out on time.
 */
export interface Influence {
  readonly enabled: boolean;
  /** Orders `targets` (already filtered to the inbound family) and claims probes. */
  plan(targets: ReadonlyArray<{ seat: string; model: string }>): Plan;
  /** Records the evidence of one attempt on one planned target. */
  record(plan: Plan, target: PlannedTarget, evidence: Evidence): void;
  /** The request is over: probe claims it never resolved are released. */
  finish(plan: Plan): void;
  reset(seat?: string, model?: string): ResetOutcome;
  /** The current ordering and state of one configured chain (no claims taken). */
  view(chain: ReadonlyArray<{ seat: string; model: string }>): SnapshotTarget[];
  seats(): Snapshot['seats'];
  status(): StatusSummary;
  nextTimerAt(): number | null;
  fireTimers(): void;
}

export type { Counters };
