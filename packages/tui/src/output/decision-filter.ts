import type { DecisionEvent } from '@routeplane/shared';

/**
 * `routeplane logs`' filters, the same on the file and on `-f`: a decision
 * is shown when it matches every filter given. `seat`: a seat it was tried
 * on or served by; `session`: the start of its session tag; `status`: its
 * status code, or a class (`2xx`, `4xx`, `5xx`).
 */
export interface DecisionFilter {
  seat?: string;
  route?: string;
  session?: string;
  agent?: string;
  status?: string;
}

const STATUS = /^(\d{3}|[1-5]xx)$/;

/** The `--status` forms; null when `text` is none of them. */
export function statusFilter(text: string): string | null {
  const value = text.trim().toLowerCase();
  return STATUS.test(value) ? value : null;
}

function statusMatches(status: number, filter: string): boolean {
  return filter.endsWith('xx') ? Math.floor(status / 100) === Number(filter[0]) : status === Number(filter);
}

export function matchesDecision(d: DecisionEvent, filter: DecisionFilter): boolean {
  if (filter.route !== undefined && d.route !== filter.route) return false;
  if (filter.agent !== undefined && d.agent !== filter.agent) return false;
  if (filter.session !== undefined && !(d.session ?? '').startsWith(filter.session.toLowerCase())) return false;
  if (filter.status !== undefined && !statusMatches(d.status, filter.status)) return false;
  if (filter.seat !== undefined) {
    const seat = filter.seat;
    const served = d.served_by !== null && d.served_by.slice(0, d.served_by.indexOf('/')) === seat;
    if (!served && !d.attempts.some((a) => a.seat === seat)) return false;
  }
  return true;
}

/** True when no filter is given. */
export function isEmptyFilter(filter: DecisionFilter): boolean {
  return Object.values(filter).every((v) => v === undefined);
}
