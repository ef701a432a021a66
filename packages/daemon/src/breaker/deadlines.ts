import type { EngineState } from './engine-state.js';

/**
 * What comes due with time, applied in one place: a rate limit ends at its
 * deadline (no probe); every other breaker becomes probe-ready at its
 * `until`; a probe claim unresolved past max_cooldown_secs lets another
 * probe go; pending count announcements go out at the end of their window.
 * The daemon's timer calls `advance` when `nextDueAt` comes; the engine also
 * calls it before it plans or answers, so what it reads is never behind.
 */
export function advance(s: EngineState, now: number): void {
  if (s.table.size === 0) return;
  for (const held of [...s.table.values()]) {
    const b = held.b;
    if (b.kind === 'rate_limit') {
      if (b.until !== null && b.until <= now) s.table.end(b.key, 'cleared', 'deadline passed');
      continue;
    }
    if (b.phase === 'open' && b.until !== null && b.until <= now) {
      b.phase = 'probe_ready';
      s.table.announce(held, 'probe_ready', b.kind === 'quota' ? 'quota reset passed' : 'cooldown elapsed');
    } else if (b.phase === 'probing' && b.claimed_at !== null && now >= b.claimed_at + s.limits.maxCooldownMs) {
      b.phase = 'probe_ready';
      b.claimed_at = null;
      // the stale claim can no longer resolve this breaker
      held.claimId = -1;
      s.table.announce(held, 'probe_ready', 'probe unresolved past max cooldown');
    }
  }
  s.table.flushCounts(now);
}

export function nextDueAt(s: EngineState): number | null {
  let next = s.table.nextCountDue();
  for (const { b } of s.table.values()) {
    if (b.phase === 'open' && b.until !== null) next = Math.min(next, b.until);
    else if (b.phase === 'probing' && b.claimed_at !== null) next = Math.min(next, b.claimed_at + s.limits.maxCooldownMs);
  }
  return Number.isFinite(next) ? next : null;
}
