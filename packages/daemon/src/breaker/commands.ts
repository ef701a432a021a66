import { breakersNamedBy } from '@routeplane/shared';
import type { EngineState } from './engine-state.js';
import type { CommandRefusal, ProbeOutcome, ResetOutcome } from './types.js';

/**
 * `reset` and `probe`, the commands a person gives (the control socket,
 * `routeplane breakers`, `top`). Which breakers a command names is the
 * shared rule `namedByCommand` (top asks about the same ones); the streaks
 * a reset clears with them are the daemon's own.
 */

export function reset(s: EngineState, seat?: string, model?: string): ResetOutcome {
  const scope = namedKeys(s, seat, model);
  if (!scope.ok) return scope;
  let cleared = 0;
  for (const key of scope.keys) if (s.table.end(key, 'reset', 'reset')) cleared++;
  for (const name of scope.streaks) if (s.streaks.reset(name)) s.store.streak(name, 0, null);
  return { ok: true, cleared };
}

/** Every open breaker named becomes probe-ready now; rate limits need no probe and are left alone. */
export function probeNow(s: EngineState, seat: string, model?: string): ProbeOutcome {
  const scope = namedKeys(s, seat, model);
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

function namedKeys(s: EngineState, seat: string | undefined, model: string | undefined): Named {
  const { topology } = s;
  const held = [...s.table.values()].map((h) => h.b);
  if (seat === undefined) {
    const streaks = [...s.streaks.entries()].map(([name]) => name);
    return { ok: true, keys: held.map((b) => b.key), streaks };
  }
  const info = topology.seats.get(seat);
  if (info === undefined) {
    return { ok: false, code: 'unknown_seat', message: `unknown seat "${seat}" (seats: ${[...topology.seats.keys()].join(', ')})` };
  }
  if (model !== undefined && !topology.hasTarget(seat, model)) {
    const models = info.models.length === 0 ? 'no route uses it' : `its models: ${info.models.join(', ')}`;
    return { ok: false, code: 'unknown_target', message: `unknown target "${seat}/${model}" (${models})` };
  }
  const keys = breakersNamedBy(held, info, model).map((b) => b.key);
  const streaks = (model === undefined ? info.models : [model]).flatMap((m) => {
    const t = topology.target(seat, m);
    return [t.label, t.providerStreak];
  });
  return { ok: true, keys, streaks };
}
