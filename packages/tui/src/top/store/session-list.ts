import type { DecisionEvent } from '@routeplane/shared';

/**
 * The sessions view (key `S`): one row per agent session seen in the last
 * 10 minutes — a projection of the decisions the monitor saw (the backfill
 * included), not a question to the daemon. A row says who the session is
 * (its tag, client, agent, route), where its last request was served
 * (`seat/model`, or null when nothing answered), how many requests it made,
 * when it was last seen, and whether that last request failed over.
 * Requests with no session are no session. Memory is bounded: at most
 * MAX_SESSIONS, the least recently seen dropped.
 */
export const SESSION_WINDOW_MS = 10 * 60_000;
export const MAX_SESSIONS = 500;

export interface SessionView {
  /** the session's tag, as the decision carries it */
  readonly session: string;
  readonly client: string | null;
  readonly agent: string | null;
  readonly route: string | null;
  /** `seat/model` that served its last request; null when none did */
  readonly servedBy: string | null;
  readonly requests: number;
  readonly lastSeen: number;
  /** its last request tried more than one target */
  readonly failedOver: boolean;
}

function failedOver(d: DecisionEvent): boolean {
  const first = d.attempts[0];
  return first !== undefined && d.attempts.some((a) => a.seat !== first.seat || a.model !== first.model);
}

export class SessionList {
  /** by tag, least recently seen first (re-inserted when seen) */
  private readonly byTag = new Map<string, SessionView>();

  record(d: DecisionEvent): void {
    if (d.session === null) return;
    const before = this.byTag.get(d.session);
    // an older decision (the backfill) counts but does not say where the session is now
    const latest = before === undefined || d.ts >= before.lastSeen;
    const row: SessionView =
      before !== undefined && !latest
        ? { ...before, requests: before.requests + 1 }
        : {
            session: d.session,
            client: d.client ?? before?.client ?? null,
            agent: d.agent,
            route: d.route,
            servedBy: d.served_by,
            requests: (before?.requests ?? 0) + 1,
            lastSeen: d.ts,
            failedOver: failedOver(d),
          };
    if (latest) this.byTag.delete(d.session);
    this.byTag.set(d.session, row);
    if (this.byTag.size > MAX_SESSIONS) this.byTag.delete(this.byTag.keys().next().value!);
  }

  /** The sessions seen in the last 10 minutes before `now`, the most recently seen first. */
  sessions(now: number): SessionView[] {
    const out: SessionView[] = [];
    for (const row of this.byTag.values()) if (row.lastSeen >= now - SESSION_WINDOW_MS) out.push(row);
    return out.sort((a, b) => b.lastSeen - a.lastSeen || (a.session < b.session ? -1 : 1));
  }
}
