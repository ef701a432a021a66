import type { Signal } from '@routeplane/shared';
import type { Evidence, EvidenceOf } from '../signals/evidence.js';
import type { EngineState } from './engine-state.js';
import { releaseClaim } from './planning.js';
import type { Held } from './table.js';
import type { TargetKeys } from './topology.js';
import { clampWait, countRefused, failProbe, setDeadline, tripWithCooldown } from './transitions.js';
import type { Claim, Plan, PlannedTarget, Recorded } from './types.js';

const NOTHING_TRIPPED: Recorded = { tripped: false };
const TRIPPED: Recorded = { tripped: true };

/**
 * What one attempt's evidence does to the breakers: only negative evidence
 * trips, a success restores. Says
 * whether it tripped, re-tripped or extended a breaker that waits for a
 * probe on the target (a retry must not hammer what this answer just tripped).
 */
export function record(s: EngineState, p: Plan, target: PlannedTarget, evidence: Evidence): Recorded {
  const claims: Claim[] = [];
  for (const c of p.claims) {
    if (c.index === target.index && !c.resolved) {
      c.resolved = true;
      claims.push(c);
    }
  }
  switch (evidence.class) {
    case 'ok':
      recordSuccess(s, p, target.keys, claims);
      return NOTHING_TRIPPED;
    case 'aborted':
    case 'none':
    case 'request':
      for (const c of claims) releaseClaim(s, c, 'probe gave no verdict');
      return NOTHING_TRIPPED;
    case 'key_rejected':
      // the original rule: an auth demand is not evidence (fail over, change nothing)
      if (!s.limits.tripOnRejectedKey) {
        for (const c of claims) releaseClaim(s, c, 'probe gave no verdict');
        return NOTHING_TRIPPED;
      }
      return recordFailure(s, target.keys, evidence, claims) ? TRIPPED : NOTHING_TRIPPED;
    case 'credit':
    case 'quota':
    case 'rate_limit':
    case 'model_error':
      return recordFailure(s, target.keys, evidence, claims) ? TRIPPED : NOTHING_TRIPPED;
  }
}

/** A success clears what it speaks for: the seat's credit, key and quota, the target's breakers, its provider model. */
function recordSuccess(s: EngineState, p: Plan, keys: TargetKeys, claims: readonly Claim[]): void {
  resetStreak(s, keys.label);
  resetStreak(s, keys.providerStreak);
  const probed = new Set(claims.map((c) => c.key));
  for (const key of [keys.credit, keys.keyRejected, keys.seatQuota, keys.modelQuota, keys.errors, keys.providerErrors]) {
    const held = s.table.get(key);
    // A request that began before a trip (a long stream, say) and succeeds after it says
    // nothing about the state that tripped: clearing on it would flap the breaker.
    if (held === undefined || held.b.since > p.plannedAt) continue;
    const claimed = probed.has(key) && claims.some((c) => c.key === key && c.claimId === held.claimId);
    const why = claimed ? 'probe succeeded' : key === keys.errors || key === keys.modelQuota ? 'success' : `success on ${keys.model}`;
    s.table.end(key, 'cleared', why);
  }
  // claims on breakers that re-tripped after this request planned: no verdict on the new trip
  for (const c of claims) if (s.table.get(c.key) !== undefined) releaseClaim(s, c, 'probe gave no verdict');
}

type Failure = EvidenceOf<'credit' | 'quota' | 'rate_limit' | 'model_error' | 'key_rejected'>;

/** Records a failure; true when it tripped, re-tripped or extended a credit, quota, key or errors breaker on the target. */
function recordFailure(s: EngineState, keys: TargetKeys, evidence: Failure, claims: readonly Claim[]): boolean {
  const now = s.clock.now();
  const signal = evidence.signal;
  const quotaWait = evidence.class === 'quota' ? quotaWaitMs(s, evidence.resetAt, now) : null;
  const resetAt = evidence.class === 'quota' ? evidence.resetAt : null;

  // A probe on this target failed, whatever the failure: every breaker it claimed re-trips.
  const failed = new Set<Held>();
  for (const c of claims) {
    const held = s.table.get(c.key);
    if (held === undefined || held.claimId !== c.claimId) continue;
    failed.add(held);
    failProbe(s, held, `probe failed: ${describe(evidence)}`, signal, quotaWait, resetAt, now);
  }
  // only breakers that wait for a probe are claimed: a failed probe re-tripped one
  const reTripped = failed.size > 0;
  // Evidence against a breaker already open outside a probe changes no cooldown; it is counted.
  for (const key of keys.covering) {
    const held = s.table.get(key);
    if (held !== undefined && !failed.has(held)) countRefused(s, held);
  }

  switch (evidence.class) {
    case 'credit':
      if (s.table.get(keys.credit)) return reTripped;
      tripWithCooldown(s, 'credit', { scope: 'seat', seat: keys.seat }, describe(evidence), signal);
      return true;
    case 'key_rejected':
      if (s.table.get(keys.keyRejected)) return reTripped;
      tripWithCooldown(s, 'key_rejected', { scope: 'seat', seat: keys.seat }, describe(evidence), signal);
      return true;
    case 'quota': {
      const subject =
        evidence.cover === 'seat'
          ? { scope: 'seat' as const, seat: keys.seat }
          : { scope: 'model' as const, seat: keys.seat, model: keys.model };
      const key = evidence.cover === 'seat' ? keys.seatQuota : keys.modelQuota;
      const held = s.table.get(key);
      // a probe of this very breaker that just failed already took the new reset
      if (held !== undefined && failed.has(held)) return true;
      const change = setDeadline(s, 'quota', subject, quotaWait!, evidence.resetAt, describe(evidence), signal, now);
      return reTripped || change !== 'unchanged';
    }
    case 'rate_limit':
      setDeadline(
        s,
        'rate_limit',
        { scope: 'seat', seat: keys.seat },
        clampWait(evidence.waitMs, s.limits.maxCooldownMs),
        null,
        describe(evidence),
        signal,
      );
      // a rate limit is no reason to stop retrying: the retry waits past it
      return reTripped;
    case 'model_error':
      return recordModelError(s, keys, signal) || reTripped;
  }
}

/** The error streak on the target, and the provider layer's across the upstream's seats; true when either tripped. */
function recordModelError(s: EngineState, keys: TargetKeys, signal: Signal | null): boolean {
  const now = s.clock.now();
  const { tripThreshold } = s.limits;
  let tripped = false;
  if (!s.table.get(keys.errors)) {
    const streak = s.streaks.fail(keys.label, keys.seat, now);
    s.store.streak(keys.label, streak.count, streak.lastFailureAt);
    if (streak.count >= tripThreshold) {
      tripWithCooldown(s, 'errors', { scope: 'model', seat: keys.seat, model: keys.model }, `${streak.count} consecutive failures`, signal);
      tripped = true;
    }
  }
  if (!s.table.get(keys.providerErrors)) {
    const streak = s.streaks.fail(keys.providerStreak, keys.seat, now);
    s.store.streak(keys.providerStreak, streak.count, streak.lastFailureAt);
    // one seat failing is that seat's trouble; two seats failing the same model is the provider's
    if (streak.count >= tripThreshold && streak.seats.size >= 2) {
      tripWithCooldown(
        s,
        'errors',
        { scope: 'provider', upstream: keys.upstream, model: keys.model },
        `${streak.count} consecutive failures on ${streak.seats.size} seats`,
        signal,
      );
      tripped = true;
    }
  }
  return tripped;
}

function resetStreak(s: EngineState, name: string): void {
  if (s.streaks.reset(name)) s.store.streak(name, 0, null);
}

/** Until the stated reset, clamped to [1 s, max_quota_secs]: a hostile reset can't strand a seat longer. */
function quotaWaitMs(s: EngineState, resetAt: number, now: number): number {
  return clampWait(resetAt - now, s.limits.maxQuotaMs);
}

/** The event's reason words for an answer: `http_402`, `http_429`, `model failure`, or the signal's own status and code. */
function describe(evidence: Failure): string {
  const sig = evidence.signal;
  if (sig !== null && sig.status !== null) {
    const code = sig.code ?? sig.type;
    return code === null ? `http_${sig.status}` : `http_${sig.status} ${code}`;
  }
  return evidence.class === 'model_error' ? 'model failure' : evidence.class;
}
