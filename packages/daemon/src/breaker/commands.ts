import { type BreakerKind, breakerKey } from '@routeplane/shared';
import type { EngineState } from './engine-state.js';
import type { TargetKeys } from './topology.js';
import type { CommandRefusal, ProbeOutcome, ResetOutcome } from './types.js';

/**
 * `reset` and `probe`, the commands a person gives (the control socket,
 * `routeplane breakers`, `top`). A seat names its seat-wide breakers and its
 * targets'; a target names its own breakers and the provider breaker
 * covering it.
 */

export function reset(s: EngineState, seat?: string, model?: string): ResetOutcome {
  const scope = namedKeys(s, seat, model, 'reset');
  if (!scope.ok) return scope;
  let cleared = 0;
  for (const key of scope.keys) if (s.table.end(key, 'reset', 'reset')) cleared++;
  for (const name of scope.streaks) if (s.streaks.reset(name)) s.store.streak(name, 0, null);
  return { ok: true, cleared };
}

/** Every open breaker named becomes probe-ready now; rate limits need no probe and are left alone. */
export function probeNow(s: EngineState, seat: string, model?: string): ProbeOutcome {
  const scope = namedKeys(s, seat, model, 'probe');
  if (!scope.ok) return scope;
  const now = s.clock.now();
  let made = 0;
  for (const key of scope.keys) {
    const held = s.table.get(key);
    if (held === undefined || held.b.kind === 'rate_limit' || held.b.phase !== 'open') continue;
    held.b.phase = 'probe_ready';
    held.b.until = now;
    s.table.announce(held, 'probe_ready', 'probe now');
    made++;
  }
  return { ok: true, made_ready: made };
}

type Named = { ok: true; keys: string[]; streaks: string[] } | CommandRefusal;

function namedKeys(s: EngineState, seat: string | undefined, model: string | undefined, command: 'reset' | 'probe'): Named {
  const { topology } = s;
  if (seat === undefined) {
    const keys = [...s.table.values()].map((h) => h.b.key);
    const streaks = [...s.streaks.entries()].map(([name]) => name);
    return { ok: true, keys, streaks };
  }
  const info = topology.seats.get(seat);
  if (info === undefined) return { ok: false, code: 'unknown_seat', message: `unknown seat "${seat}"` };
  if (model !== undefined) {
    if (!topology.hasTarget(seat, model)) return { ok: false, code: 'unknown_target', message: `unknown target "${seat}/${model}"` };
    return targetScope(topology.target(seat, model));
  }
  const keys = new Set<string>(['credit', 'key_rejected', 'quota'].map((kind) => breakerKey(kind as BreakerKind, { scope: 'seat', seat })));
  if (command === 'reset') keys.add(breakerKey('rate_limit', { scope: 'seat', seat }));
  const streaks: string[] = [];
  for (const m of info.models) {
    const t = targetScope(topology.target(seat, m));
    for (const k of t.keys) keys.add(k);
    streaks.push(...t.streaks);
  }
  return { ok: true, keys: [...keys], streaks };
}

function targetScope(t: TargetKeys): { ok: true; keys: string[]; streaks: string[] } {
  return { ok: true, keys: [t.errors, t.modelQuota, t.providerErrors], streaks: [t.label, t.providerStreak] };
}
