import type { Breaker, BreakerEvent, ChainEntryState, Lane, OpenBreaker, Snapshot, SnapshotRoute, TripReason } from '@routeplane/shared';
import type { Evidence } from '../signals/evidence.js';
import type { TargetKeys } from './topology.js';

/** Injected time source: breaker logic never reads the wall clock itself. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A breaker event before the bus stamps `seq` and `ts`. */
export type BreakerChange = Omit<BreakerEvent, 'seq' | 'ts'>;

/** A chain entry handed to `plan()`: the target's keys and its configured position. */
export interface PlanEntry {
  readonly keys: TargetKeys;
  /** position in the configured chain */
  readonly index: number;
}

/** A target as a request will try it. */
export interface PlannedTarget {
  readonly seat: string;
  readonly model: string;
  /** position in the configured chain */
  readonly index: number;
  readonly keys: TargetKeys;
  readonly state: Exclude<ChainEntryState, 'skipped'>;
  readonly reason: TripReason | 'reserve' | null;
  /** ms until probe-ready or the deadline (or a background reserve's reset), when tripped */
  readonly leftMs: number | null;
  /** the agent pinned it: tried first whatever its breakers say */
  readonly pinned: boolean;
}

/** One probe claimed by one request on one breaker. */
export interface Claim {
  readonly key: string;
  /** the configured index of the target the probe goes to */
  readonly index: number;
  readonly claimId: number;
  resolved: boolean;
}

/** Why background work could not be routed. */
export interface HeldBack {
  readonly seat: string;
  readonly model: string;
  readonly reason: TripReason | 'reserve';
  /** when what `reason` names ends (probe-ready time, deadline, reserve reset), or null */
  readonly until: number | null;
  /** a tripped target's seat reserve reset, when the reserve holds it back too; else null */
  readonly reserveUntil: number | null;
  /** when it may be routable for background work again: the later of `until` and `reserveUntil` */
  readonly routableAt: number | null;
}

/** A request's chain, fixed when it starts. */
export interface Plan {
  /** the entries as given, in the request's base order */
  readonly entries: readonly PlanEntry[];
  readonly targets: readonly PlannedTarget[];
  readonly failOpen: boolean;
  readonly claims: readonly Claim[];
  /** when the request planned: a success it reports cannot speak for a trip that came later */
  readonly plannedAt: number;
  readonly lane: Lane;
  /** background work with nothing routable: why each target was held back (targets is then empty) */
  readonly heldBack: readonly HeldBack[] | null;
  /**
   * background work: the targets it goes past, never tried — in the
   * decision's chain after `targets` (all of them when nothing was routable),
   * so the chain still has one entry per configured target and says why each
   * was not used
   */
  readonly passedOver?: readonly PlannedTarget[];
}

export interface PlanOptions {
  lane?: Lane;
  /** configured index of a pinned entry: first, whatever its breakers say */
  pinnedIndex?: number | null;
  /** background only: the seats a reserve holds back now, with the reset that frees them */
  reserveUntil?: (seat: string) => number | null;
}

/** Why a reset or probe command was refused. */
export interface CommandRefusal {
  ok: false;
  code: 'influence_disabled' | 'unknown_seat' | 'unknown_target';
  message: string;
}

export type ResetOutcome = { ok: true; cleared: number } | CommandRefusal;
export type ProbeOutcome = { ok: true; made_ready: number } | CommandRefusal;

/** What recording one answer did to its target. */
export interface Recorded {
  /**
   * It tripped, re-tripped (a failed probe) or extended a credit, quota, key
   * or model-errors breaker covering the target: such a target is not retried.
   * A breaker that was already open and that this
   * answer left as it was does not count: a pinned or fail-open target keeps
   * its retries.
   */
  readonly tripped: boolean;
}

/**
 * The routing-influence engine. Pure: takes a clock, reports changes through
 * its sink, and never touches I/O. The daemon drives `fireTimers` when
 * `nextTimerAt` comes due so probe-ready and deadline events go out on time.
 */
export interface Influence {
  readonly enabled: boolean;
  /** Orders `entries` (already in the request's base order, filtered to the inbound family) and claims probes. */
  plan(entries: readonly PlanEntry[], options?: PlanOptions): Plan | Promise<Plan>;
  /** The chain as a request would see it now, claiming nothing (for requests refused before routing). */
  preview(entries: readonly PlanEntry[], pinnedIndex: number | null): PlannedTarget[];
  /** Records the evidence of one attempt on one planned target, and says what it did to the target. */
  record(plan: Plan, target: PlannedTarget, evidence: Evidence): Recorded;
  /** The request is over: probe claims it never resolved are released. */
  finish(plan: Plan): void;
  /** A background request stood behind these breakers and was skipped (503). */
  countSkipped(plan: Plan): void;
  reset(seat?: string, model?: string): ResetOutcome;
  probe(seat: string, model?: string): ProbeOutcome;
  /** Every active breaker, as last announced. */
  breakers(): Breaker[];
  /** Each route's chain as a request starting now would try it (no claims taken). */
  routes(): SnapshotRoute[];
  seats(): Snapshot['seats'];
  open(): OpenBreaker[];
  nextTimerAt(): number | null;
  fireTimers(): void;
}
