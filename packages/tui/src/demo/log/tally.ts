import type { BreakerScope, DaemonEvent } from '@routeplane/shared';

/** What the daemon's events added up to, for the closing summary. */
export interface EventTally {
  decisions: number;
  /** decisions that tried more than one target */
  failovers: number;
  failOpen: number;
  trips: Record<BreakerScope, number>;
  probesClaimed: number;
  probesFailed: number;
  cleared: number;
}

export function emptyTally(): EventTally {
  return {
    decisions: 0,
    failovers: 0,
    failOpen: 0,
    trips: { seat_credit: 0, seat_rate_limit: 0, model: 0, seat_quota: 0, model_quota: 0, seat_key: 0, provider_model: 0 },
    probesClaimed: 0,
    probesFailed: 0,
    cleared: 0,
  };
}

export function countEvent(tally: EventTally, event: DaemonEvent): void {
  if (event.type === 'decision') {
    tally.decisions++;
    if (event.attempts.length > 1) tally.failovers++;
    if (event.fail_open) tally.failOpen++;
    return;
  }
  if (event.type !== 'breaker') return;
  switch (event.action) {
    case 'tripped':
      tally.trips[event.scope]++;
      return;
    case 'probe_claimed':
      tally.probesClaimed++;
      return;
    case 'probe_failed':
      tally.probesFailed++;
      return;
    case 'cleared':
      tally.cleared++;
      return;
    case 'extended':
    case 'probe_ready':
    case 'reset':
    case 'refused':
    case 'skipped':
      return;
  }
}

export function totalTrips(tally: EventTally): number {
  return Object.values(tally.trips).reduce((sum, n) => sum + n, 0);
}
