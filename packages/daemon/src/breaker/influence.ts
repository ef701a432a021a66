import type {
  BreakerAction,
  BreakerScope,
  InfluenceConfig,
  OpenBreaker,
  RouteConfig,
  SeatConfig,
  Snapshot,
  SnapshotTarget,
  StatusSummary,
  TripReason,
} from '@routeplane/shared';
import { orderByHealth } from './order.js';
import { newTrip, tripView, type ModelHealth, type SeatHealth, type Trip } from './state.js';
import type { BreakerChange, Clock, Evidence, Influence, Plan, PlannedTarget, ResetOutcome } from './types.js';
import { disabledInfluence } from './disabled.js';

const RATE_LIMIT_FLOOR_MS = 1000;

/** One probe claimed by one request on one breaker. */
interface Claim {
  index: number;
  trip: Trip;
  claimId: number;
  scope: 'seat_credit' | 'model';
  seat: string;
  model: string;
  resolved: boolean;
}

interface EnginePlan extends Plan {
  readonly claims: Claim[];
  /** when the request planned: a success it reports cannot speak for a trip that came later */
  readonly plannedAt: number;
}

type TargetHealth =
  | { kind: 'healthy' }
  | { kind: 'probe_ready'; trips: Array<{ trip: Trip; scope: 'seat_credit' | 'model' }> }
  | { kind: 'probing'; reasons: TripReason[] }
  | { kind: 'tripped'; reasons: TripReason[]; until: number };

export function createInfluence(
  cfg: InfluenceConfig,
  seats: readonly SeatConfig[],
  routes: readonly RouteConfig[],
  clock: Clock,
  onChange: (change: BreakerChange) => void,
): Influence {
  if (!cfg.enabled) return disabledInfluence(seats, routes);
  return new InfluenceEngine(cfg, seats, routes, clock, onChange);
}

/**
 * The routing-influence breaker (seed 000): only negative evidence reorders,
 * a success or an expired deadline restores. Pure — time comes from `clock`,
 * changes leave through `onChange`.
 */
export class InfluenceEngine implements Influence {
  readonly enabled = true;
  private readonly seatHealth = new Map<string, SeatHealth>();
  private readonly baseCooldownMs: number;
  private readonly maxCooldownMs: number;
  private readonly windowMs: number;
  private nextClaimId = 1;

  constructor(
    private readonly cfg: InfluenceConfig,
    seats: readonly SeatConfig[],
    routes: readonly RouteConfig[],
    private readonly clock: Clock,
    private readonly onChange: (change: BreakerChange) => void,
  ) {
    this.maxCooldownMs = cfg.max_cooldown_secs * 1000;
    this.baseCooldownMs = Math.min(cfg.cooldown_secs * 1000, this.maxCooldownMs);
    this.windowMs = cfg.window_secs * 1000;
    for (const seat of seats) {
      this.seatHealth.set(seat.id, { id: seat.id, provider: seat.provider, credit: null, rateLimit: null, models: new Map() });
    }
    for (const route of routes) {
      for (const t of route.chain) this.modelOf(t.seat, t.model);
    }
  }

  // ── routing ───────────────────────────────────────────────────────────

  plan(targets: ReadonlyArray<{ seat: string; model: string }>): Plan {
    const now = this.clock.now();
    const claims: Claim[] = [];
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch is exhaustive
    const planned: PlannedTarget[] = targets.map((t, index) => {
      const health = this.healthOf(t.seat, t.model, now);
      switch (health.kind) {
        case 'healthy':
          return { seat: t.seat, model: t.model, index, state: 'healthy', reason: null };
        case 'probe_ready':
          for (const { trip, scope } of health.trips) {
            trip.claimedAt = now;
            trip.claimId = this.nextClaimId++;
            trip.staleAnnounced = false;
            claims.push({ index, trip, claimId: trip.claimId, scope, seat: t.seat, model: t.model, resolved: false });
            this.emitTrip('probe_claimed', scope, t.seat, scope === 'model' ? t.model : null, 'probe claimed', trip);
          }
          return {
            seat: t.seat,
            model: t.model,
            index,
            state: 'probe',
            reason: health.trips[0]?.scope === 'model' ? 'model_errors' : 'credit',
          };
        case 'probing':
        case 'tripped':
          return { seat: t.seat, model: t.model, index, state: 'tripped', reason: health.reasons[0] ?? null };
      }
    });
    const { ordered, failOpen } = orderByHealth(planned, (p) => p.state !== 'tripped');
    const plan: EnginePlan = { targets: ordered, failOpen, claims, plannedAt: now };
    return plan;
  }

  record(plan: Plan, target: PlannedTarget, evidence: Evidence): void {
    const seat = this.seatHealth.get(target.seat);
    if (!seat) return;
    const model = this.modelOf(target.seat, target.model);
    const now = this.clock.now();
    const claims = (plan as EnginePlan).claims.filter((c) => c.index === target.index && !c.resolved);
    for (const c of claims) c.resolved = true;

    switch (evidence.kind) {
      case 'success': {
        model.streak = 0;
        model.lastFailureAt = null;
        // A request that began before a trip (a long stream, say) and succeeds after it
        // says nothing about the state that tripped: clearing on it would flap the breaker.
        const plannedAt = (plan as EnginePlan).plannedAt;
        if (model.breaker && model.breaker.trippedAt <= plannedAt) {
          const probed = claims.some((c) => c.trip === model.breaker);
          model.breaker = null;
          this.emit('cleared', 'model', seat.id, target.model, probed ? 'probe succeeded' : 'success', null, null, 0);
        }
        if (seat.credit && seat.credit.trippedAt <= plannedAt) {
          const probed = claims.some((c) => c.trip === seat.credit);
          seat.credit = null;
          this.emit('cleared', 'seat_credit', seat.id, null, probed ? 'probe succeeded' : `success on ${target.model}`, null, null, 0);
        }
        return;
      }
      case 'none':
        for (const c of claims) this.releaseClaim(c, 'probe gave no verdict');
        return;
      case 'credit':
      case 'rate_limit':
      case 'model_failure':
        this.recordFailure(seat, model, target, evidence, claims, now);
        return;
    }
  }

  finish(plan: Plan): void {
    for (const c of (plan as EnginePlan).claims) {
      if (c.resolved) continue;
      c.resolved = true;
      this.releaseClaim(c, 'probe not reached');
    }
  }

  private recordFailure(
    seat: SeatHealth,
    model: ModelHealth,
    target: PlannedTarget,
    evidence: Exclude<Evidence, { kind: 'success' | 'none' }>,
    claims: Claim[],
    now: number,
  ): void {
    // A probe on this target failed, whatever the failure: every claimed breaker re-trips, doubled.
    const failedProbe = new Set<Trip>();
    for (const c of claims) {
      if (this.currentTrip(c) !== c.trip || c.trip.claimId !== c.claimId) continue;
      failedProbe.add(c.trip);
      this.failProbe(c.trip, c.scope, seat.id, c.scope === 'model' ? target.model : null, evidence, now);
    }
    // Evidence on a breaker already open outside a probe changes no cooldown; it is counted.
    if (seat.credit && !failedProbe.has(seat.credit)) seat.credit.refusedCount++;
    if (seat.rateLimit && seat.rateLimit.until > now) seat.rateLimit.refusedCount++;
    if (model.breaker && !failedProbe.has(model.breaker)) model.breaker.refusedCount++;

    switch (evidence.kind) {
      case 'credit':
        if (!seat.credit) {
          seat.credit = newTrip(now, this.baseCooldownMs);
          this.emitTrip('tripped', 'seat_credit', seat.id, null, 'http_402', seat.credit);
        }
        return;
      case 'rate_limit':
        this.rateLimit(seat, evidence.retryAfterMs, now);
        return;
      case 'model_failure': {
        if (model.breaker) return;
        const stale = model.lastFailureAt !== null && now - model.lastFailureAt > this.windowMs;
        model.streak = stale ? 1 : model.streak + 1;
        model.lastFailureAt = now;
        if (model.streak >= this.cfg.trip_threshold) {
          model.breaker = newTrip(now, this.baseCooldownMs);
          this.emitTrip('tripped', 'model', seat.id, target.model, `${model.streak} consecutive failures`, model.breaker);
        }
        return;
      }
    }
  }

  /** 429: a provider-declared deadline, clamped to [1 s, max]; it only ever moves forward. */
  private rateLimit(seat: SeatHealth, retryAfterMs: number | null, now: number): void {
    const wait = clampRetryAfter(retryAfterMs, this.maxCooldownMs);
    const until = now + wait;
    const current = seat.rateLimit;
    if (current && current.until > now) {
      if (until > current.until) {
        current.until = until;
        this.emit('extended', 'seat_rate_limit', seat.id, null, 'http_429', wait, until, 0);
      }
      return;
    }
    seat.rateLimit = { since: now, until, refusedCount: 0 };
    this.emit('tripped', 'seat_rate_limit', seat.id, null, 'http_429', wait, until, 0);
  }

  private failProbe(
    trip: Trip,
    scope: 'seat_credit' | 'model',
    seat: string,
    model: string | null,
    evidence: Exclude<Evidence, { kind: 'success' | 'none' }>,
    now: number,
  ): void {
    trip.failedProbes++;
    trip.cooldownMs = Math.min(trip.cooldownMs * 2, this.maxCooldownMs);
    trip.trippedAt = now;
    trip.probeReadyAt = now + trip.cooldownMs;
    trip.claimedAt = null;
    trip.readyAnnounced = false;
    trip.staleAnnounced = false;
    const why = evidence.kind === 'credit' ? 'http_402' : evidence.kind === 'rate_limit' ? 'http_429' : 'model failure';
    this.emitTrip('probe_failed', scope, seat, model, `probe failed: ${why}`, trip);
  }

  private releaseClaim(c: Claim, reason: string): void {
    if (this.currentTrip(c) !== c.trip || c.trip.claimId !== c.claimId || c.trip.claimedAt === null) return;
    c.trip.claimedAt = null;
    this.emitTrip('probe_ready', c.scope, c.seat, c.scope === 'model' ? c.model : null, reason, c.trip);
  }

  private currentTrip(c: Claim): Trip | null {
    const seat = this.seatHealth.get(c.seat);
    if (!seat) return null;
    return c.scope === 'seat_credit' ? seat.credit : (seat.models.get(c.model)?.breaker ?? null);
  }

  // ── state reading ─────────────────────────────────────────────────────

  private healthOf(seatId: string, modelName: string, now: number): TargetHealth {
    const seat = this.seatHealth.get(seatId);
    if (!seat) return { kind: 'healthy' };
    const model = seat.models.get(modelName);
    const credit = seat.credit;
    const breaker = model?.breaker ?? null;
    const rateLimited = seat.rateLimit !== null && seat.rateLimit.until > now;
    if (!credit && !breaker && !rateLimited) return { kind: 'healthy' };

    const reasons: TripReason[] = [];
    if (credit) reasons.push('credit');
    if (rateLimited) reasons.push('rate_limit');
    if (breaker) reasons.push('model_errors');

    // A seat under a provider deadline is not probed until it passes.
    const open = [credit && { trip: credit, scope: 'seat_credit' as const }, breaker && { trip: breaker, scope: 'model' as const }].filter(
      (x): x is { trip: Trip; scope: 'seat_credit' | 'model' } => Boolean(x),
    );
    const until = Math.max(rateLimited ? seat.rateLimit!.until : 0, ...open.map((o) => o.trip.probeReadyAt));
    if (rateLimited) return { kind: 'tripped', reasons, until };
    if (open.some((o) => o.trip.claimedAt !== null && now < o.trip.claimedAt + this.maxCooldownMs)) {
      return { kind: 'probing', reasons };
    }
    if (open.every((o) => now >= o.trip.probeReadyAt)) return { kind: 'probe_ready', trips: open };
    return { kind: 'tripped', reasons, until };
  }

  view(chain: ReadonlyArray<{ seat: string; model: string }>): SnapshotTarget[] {
    const now = this.clock.now();
    // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch is exhaustive
    const entries: SnapshotTarget[] = chain.map((t) => {
      const health = this.healthOf(t.seat, t.model, now);
      switch (health.kind) {
        case 'healthy':
          return { seat: t.seat, model: t.model, state: 'healthy', reasons: [], until: null };
        case 'probe_ready':
          return {
            seat: t.seat,
            model: t.model,
            state: 'probe_ready',
            reasons: health.trips.map((x) => (x.scope === 'model' ? 'model_errors' : 'credit')),
            until: Math.max(...health.trips.map((x) => x.trip.probeReadyAt)),
          };
        case 'probing':
          return { seat: t.seat, model: t.model, state: 'probing', reasons: health.reasons, until: null };
        case 'tripped':
          return { seat: t.seat, model: t.model, state: 'tripped', reasons: health.reasons, until: health.until };
      }
    });
    return orderByHealth(entries, (e) => e.state === 'healthy' || e.state === 'probe_ready').ordered;
  }

  seats(): Snapshot['seats'] {
    const now = this.clock.now();
    return [...this.seatHealth.values()].map((seat) => ({
      id: seat.id,
      provider: seat.provider,
      credit: seat.credit ? tripView(seat.credit) : null,
      rate_limit:
        seat.rateLimit && seat.rateLimit.until > now
          ? { since: seat.rateLimit.since, until: seat.rateLimit.until, refused_count: seat.rateLimit.refusedCount }
          : null,
      models: [...seat.models].map(([name, m]) => ({
        model: name,
        streak: m.lastFailureAt !== null && now - m.lastFailureAt > this.windowMs ? 0 : m.streak,
        breaker: m.breaker ? tripView(m.breaker) : null,
      })),
    }));
  }

  status(): StatusSummary {
    const now = this.clock.now();
    const open: OpenBreaker[] = [];
    for (const seat of this.seatHealth.values()) {
      if (seat.credit) {
        open.push({
          scope: 'seat_credit',
          seat: seat.id,
          model: null,
          reason: 'credit',
          refused_count: seat.credit.refusedCount,
          until: seat.credit.probeReadyAt,
        });
      }
      if (seat.rateLimit && seat.rateLimit.until > now) {
        open.push({
          scope: 'seat_rate_limit',
          seat: seat.id,
          model: null,
          reason: 'rate_limit',
          refused_count: seat.rateLimit.refusedCount,
          until: seat.rateLimit.until,
        });
      }
      for (const [name, m] of seat.models) {
        if (m.breaker) {
          open.push({
            scope: 'model',
            seat: seat.id,
            model: name,
            reason: 'model_errors',
            refused_count: m.breaker.refusedCount,
            until: m.breaker.probeReadyAt,
          });
        }
      }
    }
    return { now, open };
  }

  // ── reset and timers ──────────────────────────────────────────────────

  reset(seatId?: string, modelName?: string): ResetOutcome {
    const now = this.clock.now();
    if (seatId === undefined) {
      let cleared = 0;
      for (const seat of this.seatHealth.values()) cleared += this.resetSeat(seat, now);
      return { ok: true, cleared };
    }
    const seat = this.seatHealth.get(seatId);
    if (!seat) return { ok: false, code: 'unknown_seat', message: `unknown seat "${seatId}"` };
    if (modelName === undefined) return { ok: true, cleared: this.resetSeat(seat, now) };
    const model = seat.models.get(modelName);
    if (!model) return { ok: false, code: 'unknown_target', message: `unknown target "${seatId}/${modelName}"` };
    return { ok: true, cleared: this.resetModel(seat.id, modelName, model) };
  }

  private resetSeat(seat: SeatHealth, now: number): number {
    let cleared = 0;
    if (seat.credit) {
      seat.credit = null;
      this.emit('reset', 'seat_credit', seat.id, null, 'reset', null, null, 0);
      cleared++;
    }
    if (seat.rateLimit) {
      if (seat.rateLimit.until > now) {
        this.emit('reset', 'seat_rate_limit', seat.id, null, 'reset', null, null, 0);
        cleared++;
      }
      seat.rateLimit = null;
    }
    for (const [name, model] of seat.models) cleared += this.resetModel(seat.id, name, model);
    return cleared;
  }

  private resetModel(seat: string, name: string, model: ModelHealth): number {
    model.streak = 0;
    model.lastFailureAt = null;
    if (!model.breaker) return 0;
    model.breaker = null;
    this.emit('reset', 'model', seat, name, 'reset', null, null, 0);
    return 1;
  }

  nextTimerAt(): number | null {
    let next = Infinity;
    for (const seat of this.seatHealth.values()) {
      if (seat.rateLimit) next = Math.min(next, seat.rateLimit.until);
      for (const trip of this.tripsOf(seat)) next = Math.min(next, this.dueAt(trip));
    }
    return Number.isFinite(next) ? next : null;
  }

  /** Announces what came due: probe-ready deadlines, stale probe claims, rate-limit ends. */
  fireTimers(): void {
    const now = this.clock.now();
    for (const seat of this.seatHealth.values()) {
      if (seat.rateLimit && seat.rateLimit.until <= now) {
        seat.rateLimit = null;
        this.emit('cleared', 'seat_rate_limit', seat.id, null, 'deadline passed', null, null, 0);
      }
      const announce = (trip: Trip, scope: 'seat_credit' | 'model', model: string | null) => {
        if (this.dueAt(trip) > now) return;
        if (trip.claimedAt === null) {
          trip.readyAnnounced = true;
          this.emitTrip('probe_ready', scope, seat.id, model, 'cooldown elapsed', trip);
        } else {
          trip.staleAnnounced = true;
          this.emitTrip('probe_ready', scope, seat.id, model, 'probe unresolved past max cooldown', trip);
        }
      };
      if (seat.credit) announce(seat.credit, 'seat_credit', null);
      for (const [name, m] of seat.models) if (m.breaker) announce(m.breaker, 'model', name);
    }
  }

  private dueAt(trip: Trip): number {
    if (trip.claimedAt !== null) return trip.staleAnnounced ? Infinity : trip.claimedAt + this.maxCooldownMs;
    return trip.readyAnnounced ? Infinity : trip.probeReadyAt;
  }

  private *tripsOf(seat: SeatHealth): Iterable<Trip> {
    if (seat.credit) yield seat.credit;
    for (const m of seat.models.values()) if (m.breaker) yield m.breaker;
  }

  // ── helpers ───────────────────────────────────────────────────────────

  private modelOf(seatId: string, name: string): ModelHealth {
    const seat = this.seatHealth.get(seatId);
    if (!seat) throw new Error(`unknown seat ${seatId}`);
    let model = seat.models.get(name);
    if (!model) {
      model = { streak: 0, lastFailureAt: null, breaker: null };
      seat.models.set(name, model);
    }
    return model;
  }

  private emitTrip(action: BreakerAction, scope: BreakerScope, seat: string, model: string | null, reason: string, trip: Trip): void {
    this.emit(action, scope, seat, model, reason, trip.cooldownMs, trip.probeReadyAt, trip.failedProbes);
  }

  private emit(
    action: BreakerAction,
    scope: BreakerScope,
    seat: string,
    model: string | null,
    reason: string,
    cooldownMs: number | null,
    until: number | null,
    failedProbes: number,
  ): void {
    this.onChange({ type: 'breaker', action, scope, seat, model, reason, cooldown_ms: cooldownMs, until, failed_probes: failedProbes });
  }
}

/** Missing, unparseable, zero, negative or past → the 1 s floor; never beyond the maximum. */
export function clampRetryAfter(retryAfterMs: number | null, maxMs: number): number {
  if (retryAfterMs === null || !Number.isFinite(retryAfterMs) || retryAfterMs <= 0) return RATE_LIMIT_FLOOR_MS;
  return Math.min(Math.max(retryAfterMs, RATE_LIMIT_FLOOR_MS), Math.max(maxMs, RATE_LIMIT_FLOOR_MS));
}
