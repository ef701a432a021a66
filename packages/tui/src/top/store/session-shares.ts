import type { DecisionEvent } from '@routeplane/shared';

/**
 * Where a spread route's sessions went: for
 * each route with `balance: spread`, each target's share of the sessions
 * seen in the last 5 minutes, from the decisions the monitor saw (the
 * backfill included). A session is counted once, on the target that served
 * its latest request (or was tried first when none served); a request with
 * no session key is a session of its own, as the daemon spreads it.
 *
 * Memory is bounded: at most MAX_SESSIONS per route, the least recent dropped.
 */
export const SHARE_WINDOW_MS = 5 * 60_000;
const MAX_SESSIONS = 5_000;

interface Seen {
  target: string;
  ts: number;
}

/** route → target (`seat/model`) → fraction of the route's sessions */
export type RouteShares = ReadonlyMap<string, ReadonlyMap<string, number>>;

export class SessionShares {
  private readonly routes = new Map<string, Map<string, Seen>>();

  record(decision: DecisionEvent): void {
    if (decision.balance !== 'spread' || decision.route === null) return;
    const first = decision.attempts[0];
    const target = decision.served_by ?? (first ? `${first.seat}/${first.model}` : null);
    if (target === null) return;
    let sessions = this.routes.get(decision.route);
    if (!sessions) this.routes.set(decision.route, (sessions = new Map()));
    const key = decision.session ?? `request:${decision.request_id}`;
    const before = sessions.get(key);
    if (before && before.ts > decision.ts) return;
    // re-inserted so that the Map's order stays least recent first
    sessions.delete(key);
    sessions.set(key, { target, ts: decision.ts });
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
  }

  shares(now: number): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    for (const [route, sessions] of this.routes) {
      const counts = new Map<string, number>();
      let total = 0;
      for (const [key, seen] of sessions) {
        if (seen.ts < now - SHARE_WINDOW_MS) {
          sessions.delete(key);
          continue;
        }
        counts.set(seen.target, (counts.get(seen.target) ?? 0) + 1);
        total += 1;
      }
      if (total === 0) continue;
      out.set(route, new Map([...counts].map(([target, n]) => [target, n / total])));
    }
    return out;
  }
}
