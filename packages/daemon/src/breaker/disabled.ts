import { type Snapshot, projectRoutes } from '@routeplane/shared';
import type { Topology } from './topology.js';
import type { Clock, Influence, Plan, PlannedTarget } from './types.js';

const DISABLED = { ok: false, code: 'influence_disabled', message: 'routing influence is disabled (no breakers to reset)' } as const;
const DISABLED_PROBE = { ok: false, code: 'influence_disabled', message: 'routing influence is disabled (no breakers to probe)' } as const;

/** Influence off: no state, no hook — the base order, always. */
export function disabledInfluence(topology: Topology, clock: Clock): Influence {
  const seatView: Snapshot['seats'] = [...topology.seats.values()].map((s) => ({
    id: s.id,
    provider: s.provider,
    auth: s.auth,
    upstream: s.upstream,
    credit: null,
    rate_limit: null,
    models: s.models.map((model) => ({ model, streak: 0, breaker: null })),
    usage: null,
  }));
  const routeView = projectRoutes(topology.routes, [], topology.upstreamOf);
  return {
    enabled: false,
    plan(entries, options = {}): Plan {
      const pinnedIndex = options.pinnedIndex ?? null;
      const targets: PlannedTarget[] = entries.map((e) => ({
        seat: e.keys.seat,
        model: e.keys.model,
        index: e.index,
        keys: e.keys,
        state: 'healthy',
        reason: null,
        leftMs: null,
        pinned: e.index === pinnedIndex,
      }));
      const at = targets.findIndex((t) => t.pinned);
      if (at > 0) targets.unshift(...targets.splice(at, 1));
      return { entries, targets, failOpen: false, claims: [], plannedAt: clock.now(), lane: options.lane ?? 'foreground', heldBack: null };
    },
    preview(entries, pinnedIndex) {
      const p = this.plan(entries, { pinnedIndex }) as Plan;
      return [...p.targets];
    },
    record: () => ({ tripped: false }),
    finish() {},
    countSkipped() {},
    reset: () => DISABLED,
    probe: () => DISABLED_PROBE,
    breakers: () => [],
    routes: () => routeView,
    seats: () => seatView,
    open: () => [],
    nextTimerAt: () => null,
    fireTimers() {},
  };
}
