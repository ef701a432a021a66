import type { BreakerState, SnapshotSeat, TripReason } from '@routeplane/shared';
import type { BreakerModel } from './breaker-model.js';
import type { RouteOrders } from './configured-order.js';

/**
 * What the screen shows, derived from the breaker model, the configured
 * order and the time: the same rules the daemon orders by (spec, "The
 * influence breaker"), so a countdown reaching zero flips a target to
 * probe-ready, and a rate limit that ends moves its targets back, on the
 * next 1 Hz tick with no event needed. Pure.
 */
export type TargetPhase = 'healthy' | 'tripped' | 'probe_ready' | 'probing';
/** What happens when the countdown ends: a probe becomes allowed, or a rate limit ends. */
export type DeadlineKind = 'probe' | 'rate_limit';

export interface TargetView {
  readonly seat: string;
  readonly model: string;
  readonly phase: TargetPhase;
  /** active reasons, in the order credit, rate_limit, model_errors */
  readonly reasons: readonly TripReason[];
  /** epoch ms the countdown runs to while tripped; null otherwise */
  readonly deadline: number | null;
  readonly deadlineKind: DeadlineKind | null;
}

export interface RouteView {
  readonly route: string;
  readonly chain: readonly TargetView[];
  /** every target is tripped: requests run the configured order */
  readonly failOpen: boolean;
}

/** One breaker (or near-trip streak) of a seat, as a row of the seats panel. */
interface ProbedBreakerView {
  readonly phase: Exclude<TargetPhase, 'healthy'>;
  readonly refused: number;
  readonly failedProbes: number;
  /** probe-ready time while tripped; null once a probe may go */
  readonly deadline: number | null;
}

export type SeatBreakerView =
  | ({ readonly kind: 'credit' } & ProbedBreakerView)
  | ({ readonly kind: 'model_errors'; readonly model: string } & ProbedBreakerView)
  | { readonly kind: 'rate_limit'; readonly refused: number; readonly deadline: number }
  /** consecutive errors on a model, below the trip threshold: a trip in the making */
  | { readonly kind: 'streak'; readonly model: string; readonly streak: number };

export interface SeatView {
  readonly id: string;
  readonly provider: SnapshotSeat['provider'];
  readonly breakers: readonly SeatBreakerView[];
}

interface Part {
  readonly reason: TripReason;
  readonly phase: Exclude<TargetPhase, 'healthy'>;
  readonly deadline: number | null;
}

export function breakerPhase(b: BreakerState, now: number, maxCooldownMs: number): Exclude<TargetPhase, 'healthy'> {
  // An unresolved claim blocks another probe only until claim time + max cooldown.
  if (b.claimed_at !== null && now < b.claimed_at + maxCooldownMs) return 'probing';
  return now >= b.probe_ready_at ? 'probe_ready' : 'tripped';
}

function targetParts(seat: SnapshotSeat | undefined, model: string, now: number, maxCooldownMs: number): Part[] {
  if (!seat) return [];
  const parts: Part[] = [];
  if (seat.credit) {
    const phase = breakerPhase(seat.credit, now, maxCooldownMs);
    parts.push({ reason: 'credit', phase, deadline: phase === 'tripped' ? seat.credit.probe_ready_at : null });
  }
  if (seat.rate_limit && seat.rate_limit.until > now) {
    parts.push({ reason: 'rate_limit', phase: 'tripped', deadline: seat.rate_limit.until });
  }
  const breaker = seat.models.find((m) => m.model === model)?.breaker;
  if (breaker) {
    const phase = breakerPhase(breaker, now, maxCooldownMs);
    parts.push({ reason: 'model_errors', phase, deadline: phase === 'tripped' ? breaker.probe_ready_at : null });
  }
  return parts;
}

export function deriveTarget(
  seat: SnapshotSeat | undefined,
  ref: { seat: string; model: string },
  now: number,
  maxCooldownMs: number,
): TargetView {
  const parts = targetParts(seat, ref.model, now, maxCooldownMs);
  const reasons = parts.map((p) => p.reason);
  if (parts.length === 0) return { ...ref, phase: 'healthy', reasons, deadline: null, deadlineKind: null };
  const tripped = parts.filter((p) => p.phase === 'tripped');
  if (tripped.length > 0) {
    // Tripped until the last of its deadlines passes.
    const last = tripped.reduce((a, b) => ((b.deadline ?? 0) > (a.deadline ?? 0) ? b : a));
    return {
      ...ref,
      phase: 'tripped',
      reasons,
      deadline: last.deadline,
      deadlineKind: last.reason === 'rate_limit' ? 'rate_limit' : 'probe',
    };
  }
  const phase = parts.some((p) => p.phase === 'probing') ? 'probing' : 'probe_ready';
  return { ...ref, phase, reasons, deadline: null, deadlineKind: null };
}

export function deriveRoutes(orders: RouteOrders, model: BreakerModel, now: number, maxCooldownMs: number): RouteView[] {
  const seats = new Map(model.map((s) => [s.id, s]));
  return orders.map((order) => {
    const targets = order.targets.map((ref) => deriveTarget(seats.get(ref.seat), ref, now, maxCooldownMs));
    const healthy = targets.filter((t) => t.phase === 'healthy');
    const held = targets.filter((t) => t.phase !== 'healthy');
    // Deprioritize, never remove; when everything is tripped, fail open in configured order.
    const failOpen = healthy.length === 0 && held.length > 0;
    return { route: order.route, chain: failOpen ? targets : [...healthy, ...held], failOpen };
  });
}

export function deriveSeats(model: BreakerModel, now: number, maxCooldownMs: number): SeatView[] {
  return model.map((seat) => {
    const breakers: SeatBreakerView[] = [];
    if (seat.credit) {
      const phase = breakerPhase(seat.credit, now, maxCooldownMs);
      breakers.push({
        kind: 'credit',
        phase,
        refused: seat.credit.refused_count,
        failedProbes: seat.credit.failed_probes,
        deadline: phase === 'tripped' ? seat.credit.probe_ready_at : null,
      });
    }
    if (seat.rate_limit && seat.rate_limit.until > now) {
      breakers.push({ kind: 'rate_limit', refused: seat.rate_limit.refused_count, deadline: seat.rate_limit.until });
    }
    for (const m of seat.models) {
      if (m.breaker) {
        const phase = breakerPhase(m.breaker, now, maxCooldownMs);
        breakers.push({
          kind: 'model_errors',
          phase,
          model: m.model,
          refused: m.breaker.refused_count,
          failedProbes: m.breaker.failed_probes,
          deadline: phase === 'tripped' ? m.breaker.probe_ready_at : null,
        });
      } else if (m.streak > 0) {
        breakers.push({ kind: 'streak', model: m.model, streak: m.streak });
      }
    }
    return { id: seat.id, provider: seat.provider, breakers };
  });
}
