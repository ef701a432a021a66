import { type Breaker, type BreakerCover, type BreakerKind, breakerKey, type BreakerSubject, type Signal } from '@routeplane/shared';
import type { EngineState } from './engine-state.js';
import type { Held } from './table.js';

/**
 * The state changes of one breaker, each announced once through the table:
 * trip, extend a deadline, fail a probe, and end. Recording, commands and
 * deadlines are made of these.
 */

const RATE_LIMIT_FLOOR_MS = 1000;

/** Missing, unparseable, zero, negative or past → the 1 s floor; never beyond the maximum. */
export function clampWait(waitMs: number | null, maxMs: number): number {
  if (waitMs === null || !Number.isFinite(waitMs) || waitMs <= 0) return RATE_LIMIT_FLOOR_MS;
  return Math.min(Math.max(waitMs, RATE_LIMIT_FLOOR_MS), Math.max(maxMs, RATE_LIMIT_FLOOR_MS));
}

/** The cooldown after `failedProbes` failed probes: the base, doubled each time, up to the maximum. */
export function cooldownAfter(s: EngineState, failedProbes: number): number {
  return Math.min(s.limits.baseCooldownMs * 2 ** Math.min(failedProbes, 40), s.limits.maxCooldownMs);
}

export function newBreaker(kind: BreakerKind, subject: BreakerSubject, now: number): Breaker {
  const cover: BreakerCover = subject.scope;
  return {
    key: breakerKey(kind, subject),
    kind,
    scope: cover,
    seat: subject.scope === 'provider' ? null : subject.seat,
    upstream: subject.scope === 'provider' ? subject.upstream : null,
    model: subject.scope === 'seat' ? null : subject.model,
    phase: 'open',
    since: now,
    until: null,
    reset_at: null,
    cooldown_ms: null,
    failed_probes: 0,
    refused_count: 0,
    skipped_count: 0,
    claimed_at: null,
    signal: null,
  };
}

/** Trips a breaker with a cooldown and one probe (credit, key, model or provider errors). */
export function tripWithCooldown(s: EngineState, kind: BreakerKind, subject: BreakerSubject, reason: string, signal: Signal | null): Held {
  const now = s.clock.now();
  const b = newBreaker(kind, subject, now);
  b.cooldown_ms = s.limits.baseCooldownMs;
  b.until = now + b.cooldown_ms;
  b.signal = signal;
  return s.table.add(b, reason, signal, now);
}

/**
 * Sets a deadline breaker (a rate limit, or a quota until its reset). A
 * deadline only ever moves forward: an earlier one is ignored, a later one
 * extends. `resetAt` is the provider's own stated reset (quota).
 */
export function setDeadline(
  s: EngineState,
  kind: 'rate_limit' | 'quota',
  subject: BreakerSubject,
  waitMs: number,
  resetAt: number | null,
  reason: string,
  signal: Signal | null,
  /** when the wait was measured: a quota's wait runs to its stated reset, so `until` lands exactly on it */
  now: number = s.clock.now(),
): 'tripped' | 'extended' | 'unchanged' {
  const until = now + waitMs;
  const key = breakerKey(kind, subject);
  const held = s.table.get(key);
  if (held === undefined) {
    const b = newBreaker(kind, subject, now);
    b.until = until;
    b.cooldown_ms = waitMs;
    b.reset_at = resetAt;
    b.signal = signal;
    s.table.add(b, reason, signal, now);
    return 'tripped';
  }
  const b = held.b;
  if (b.until !== null && until <= b.until) return 'unchanged';
  b.until = until;
  b.cooldown_ms = waitMs;
  if (resetAt !== null) b.reset_at = resetAt;
  b.signal = signal;
  // a quota that was probe-ready and got a later reset is open again; a probe in flight stays in flight
  if (b.phase === 'probe_ready') b.phase = 'open';
  s.table.announce(held, 'extended', reason, signal);
  return 'extended';
}

/**
 * A probe failed: the breaker re-trips. A quota answer sets its new reset;
 * any other failure uses the cooldown, doubled per failed probe.
 */
export function failProbe(
  s: EngineState,
  held: Held,
  reason: string,
  signal: Signal | null,
  quotaWaitMs: number | null,
  resetAt: number | null,
  /** when `quotaWaitMs` was measured (see setDeadline) */
  now: number = s.clock.now(),
): void {
  const b = held.b;
  b.failed_probes++;
  b.since = now;
  b.phase = 'open';
  b.claimed_at = null;
  if (quotaWaitMs !== null && b.kind === 'quota') {
    b.cooldown_ms = quotaWaitMs;
    b.reset_at = resetAt;
  } else b.cooldown_ms = cooldownAfter(s, b.failed_probes);
  b.until = now + b.cooldown_ms;
  b.signal = signal ?? b.signal;
  s.table.announce(held, 'probe_failed', reason, signal);
}

/** Counts one more failure while the breaker was already open. */
export function countRefused(s: EngineState, held: Held): void {
  held.b.refused_count++;
  s.table.counted(held, 'refused', s.clock.now());
}
