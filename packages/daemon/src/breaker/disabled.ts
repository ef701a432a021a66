import type { RouteConfig, SeatConfig, Snapshot } from '@routeplane/shared';
import type { Influence, Plan } from './types.js';

const NO_CLAIMS: readonly never[] = [];

/** Influence off: no state, no hook — the configured order, always. */
export function disabledInfluence(seats: readonly SeatConfig[], routes: readonly RouteConfig[]): Influence {
  const models = new Map<string, string[]>(seats.map((s) => [s.id, []]));
  for (const route of routes) {
    for (const t of route.chain) {
      const list = models.get(t.seat);
      if (list && !list.includes(t.model)) list.push(t.model);
    }
  }
  const seatView: Snapshot['seats'] = seats.map((s) => ({
    id: s.id,
    provider: s.provider,
    credit: null,
    rate_limit: null,
    models: (models.get(s.id) ?? []).map((model) => ({ model, streak: 0, breaker: null })),
  }));
  return {
    enabled: false,
    plan(targets): Plan {
      return {
        targets: targets.map((t, index) => ({ seat: t.seat, model: t.model, index, state: 'healthy', reason: null })),
        failOpen: false,
        claims: NO_CLAIMS,
      };
    },
    record() {},
    finish() {},
    reset() {
      return { ok: false, code: 'influence_disabled', message: 'routing influence is disabled (no breakers to reset)' };
    },
    view(chain) {
      return chain.map((t) => ({ seat: t.seat, model: t.model, state: 'healthy', reasons: [], until: null }));
    },
    seats() {
      return seatView;
    },
    status() {
      return { now: Date.now(), open: [] };
    },
    nextTimerAt() {
      return null;
    },
    fireTimers() {},
  };
}
