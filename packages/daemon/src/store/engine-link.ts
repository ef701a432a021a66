import type { Breaker, BreakerAction } from '@routeplane/shared';
import type { InfluenceEngine } from '../breaker/engine.js';

/**
 * What the shared store needs of the engine: read the live breakers and
 * streaks, and take in what other daemons did. Everything goes through the
 * engine's own install path, so a shared change is announced like a local
 * one (with the other daemon's origin) and the engine's rules stay its own.
 */
export interface EngineLink {
  /** the live breaker under `key`, as the engine holds it now */
  live(key: string): Breaker | undefined;
  liveBreakers(): Breaker[];
  /** does this daemon's configuration have the seat, target or provider model the breaker is about */
  knows(b: Breaker): boolean;
  install(key: string, b: Breaker | null, action: BreakerAction, reason: string, origin: string): void;
  streaks(): Array<{ name: string; count: number; lastFailureAt: number | null; seats: string[] }>;
  streakSeats(name: string): string[];
  setStreak(name: string, count: number, lastFailureAt: number | null, seats: readonly string[]): void;
  limits(): { maxCooldownMs: number; windowMs: number };
}

export function linkEngine(engine: InfluenceEngine): EngineLink {
  const s = engine.state;
  return {
    live: (key) => s.table.get(key)?.b,
    liveBreakers: () => [...s.table.values()].map((h) => h.b),
    knows(b) {
      const { topology } = s;
      switch (b.scope) {
        case 'seat':
          return b.seat !== null && topology.hasSeat(b.seat);
        case 'model':
          return b.seat !== null && b.model !== null && topology.hasTarget(b.seat, b.model);
        case 'provider':
          for (const seat of topology.seats.values()) if (seat.upstream === b.upstream && seat.models.includes(b.model ?? '')) return true;
          return false;
      }
    },
    install: (key, b, action, reason, origin) => engine.install(key, b, action, reason, origin),
    streaks: () =>
      [...s.streaks.entries()].map(([name, st]) => ({ name, count: st.count, lastFailureAt: st.lastFailureAt, seats: [...st.seats] })),
    streakSeats: (name) => [...(s.streaks.get(name)?.seats ?? [])],
    setStreak: (name, count, lastFailureAt, seats) => s.streaks.set(name, count, lastFailureAt, seats),
    limits: () => ({ maxCooldownMs: s.limits.maxCooldownMs, windowMs: s.limits.windowMs }),
  };
}
