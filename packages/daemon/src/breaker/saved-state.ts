import { type Breaker, type SavedStreak, STATE_FILE_VERSION, type StateFile } from '@routeplane/shared';
import type { InfluenceEngine } from './engine.js';
import type { EngineState, Limits } from './engine-state.js';
import type { Topology } from './topology.js';

/**
 * The engine's state as `influence.state_file` keeps it, and the rules that
 * bring it back (README, "How the breaker decides"): what
 * is kept, what is dropped, and in which phase a kept breaker returns. Pure —
 * the file itself is read and written in state-file/.
 */

/** Everything worth keeping now: every active breaker as it stands and every streak not yet run out. */
export function captureState(s: EngineState, savedBy: string): StateFile {
  const now = s.clock.now();
  // live copies: a count not yet announced (coalesced) is still a count
  const breakers = [...s.table.values()].map(({ b }) => copyBreaker(b));
  const streaks: SavedStreak[] = [];
  for (const [name, subject] of streakSubjects(s.topology)) {
    const count = s.streaks.count(name, now);
    const streak = s.streaks.get(name);
    if (count === 0 || streak === undefined || streak.lastFailureAt === null) continue;
    const at = streak.lastFailureAt;
    streaks.push(
      subject.scope === 'model'
        ? { scope: 'model', seat: subject.seat, model: subject.model, count, last_failure_at: at }
        : { scope: 'provider', upstream: subject.upstream, model: subject.model, count, last_failure_at: at, seats: [...streak.seats] },
    );
  }
  return { version: STATE_FILE_VERSION, saved_at: now, saved_by: savedBy, breakers, streaks };
}

export type DropReason = 'not configured' | 'deadline passed' | 'window passed';

export interface Restoration {
  /** in the order they were saved, each in the phase it comes back in */
  readonly breakers: readonly Breaker[];
  readonly streaks: ReadonlyArray<{ name: string; count: number; lastFailureAt: number; seats: readonly string[] }>;
  readonly dropped: ReadonlyArray<{ what: string; why: DropReason }>;
}

/**
 * What of a saved state comes back at `now` under the current config:
 * - a breaker or streak whose seat or target is no longer configured is
 *   dropped; a provider one when no configured target of its upstream and
 *   model remains;
 * - a rate limit past its deadline is dropped (it would end now anyway);
 * - every other breaker comes back `probe_ready` once its `until` has passed,
 *   else `open`; a probe claim never comes back (the request that held it
 *   died with the process), so a breaker saved `probing` follows the same rule;
 * - a wait longer than the current config allows (`max_cooldown_secs`,
 *   `max_quota_secs` for quota) is cut to it, as it would be at a trip;
 * - a streak whose window has passed is dropped (it counts 0 already).
 */
export function restoration(saved: StateFile, topology: Topology, limits: Limits, now: number): Restoration {
  const configured = configuredSubjects(topology);
  const breakers: Breaker[] = [];
  const dropped: Array<{ what: string; why: DropReason }> = [];
  for (const b of saved.breakers) {
    if (!configured.covers(b)) {
      dropped.push({ what: b.key, why: 'not configured' });
      continue;
    }
    if (b.kind === 'rate_limit' && (b.until === null || b.until <= now)) {
      dropped.push({ what: b.key, why: 'deadline passed' });
      continue;
    }
    breakers.push(comeBack(b, limits, now));
  }
  const streaks: Array<{ name: string; count: number; lastFailureAt: number; seats: readonly string[] }> = [];
  for (const st of saved.streaks) {
    const name = streakName(st);
    const stillConfigured =
      st.scope === 'model' ? topology.hasTarget(st.seat, st.model) : configured.hasProviderModel(st.upstream, st.model);
    if (!stillConfigured) dropped.push({ what: name, why: 'not configured' });
    else if (now - st.last_failure_at > limits.windowMs) dropped.push({ what: name, why: 'window passed' });
    else streaks.push({ name, count: st.count, lastFailureAt: st.last_failure_at, seats: st.scope === 'model' ? [st.seat] : st.seats });
  }
  return { breakers, streaks, dropped };
}

/** A kept breaker as it returns: no claim, probe-ready once its time has passed, no wait beyond today's maximum. */
function comeBack(saved: Breaker, limits: Limits, now: number): Breaker {
  const b = copyBreaker(saved);
  b.claimed_at = null;
  const maxWaitMs = b.kind === 'quota' ? limits.maxQuotaMs : limits.maxCooldownMs;
  if (b.until !== null && b.until > now + maxWaitMs) b.until = now + maxWaitMs;
  if (b.cooldown_ms !== null && b.cooldown_ms > maxWaitMs) b.cooldown_ms = maxWaitMs;
  if (b.kind === 'rate_limit') b.phase = 'open';
  // a probed breaker without a time could never come due: it may be probed at once
  else if (b.phase === 'probe_ready' || b.until === null || b.until <= now) b.phase = 'probe_ready';
  else b.phase = 'open';
  return b;
}

function copyBreaker(b: Breaker): Breaker {
  return { ...b, signal: b.signal === null ? null : { ...b.signal } };
}

/** The engine's name of a saved streak (see TargetKeys.label and .providerStreak). */
function streakName(st: SavedStreak): string {
  return st.scope === 'model' ? `${st.seat}/${st.model}` : `${st.upstream}/${st.model}`;
}

type StreakSubject = { scope: 'model'; seat: string; model: string } | { scope: 'provider'; upstream: string; model: string };

/** Every streak the configured targets can have, by the engine's name for it. */
function streakSubjects(topology: Topology): Map<string, StreakSubject> {
  const out = new Map<string, StreakSubject>();
  for (const seat of topology.seats.values()) {
    for (const model of seat.models) {
      const keys = topology.target(seat.id, model);
      out.set(keys.label, { scope: 'model', seat: seat.id, model });
      out.set(keys.providerStreak, { scope: 'provider', upstream: seat.upstream, model });
    }
  }
  return out;
}

function configuredSubjects(topology: Topology) {
  const providerModels = new Set<string>();
  for (const seat of topology.seats.values()) for (const model of seat.models) providerModels.add(`${seat.upstream}\n${model}`);
  const hasProviderModel = (upstream: string, model: string): boolean => providerModels.has(`${upstream}\n${model}`);
  return {
    hasProviderModel,
    covers(b: Breaker): boolean {
      switch (b.scope) {
        case 'seat':
          return b.seat !== null && topology.hasSeat(b.seat);
        case 'model':
          return b.seat !== null && b.model !== null && topology.hasTarget(b.seat, b.model);
        case 'provider':
          return b.upstream !== null && b.model !== null && hasProviderModel(b.upstream, b.model);
      }
    },
  };
}

/** Puts a restoration into the engine: each breaker announced (`tripped`, or `probe_ready`), each streak set. */
export function applyRestoration(engine: InfluenceEngine, r: Restoration): void {
  const { origin, streaks } = engine.state;
  for (const b of r.breakers) {
    engine.install(b.key, b, b.phase === 'probe_ready' ? 'probe_ready' : 'tripped', 'restored from state file', origin);
  }
  for (const st of r.streaks) streaks.set(st.name, st.count, st.lastFailureAt, st.seats);
}
