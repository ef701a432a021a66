import type { UnstampedEvent } from '@routeplane/shared';

/** A decision as the proxy records one: a 402 on the first seat, served by the second. */
export function sampleDecision(i: number): UnstampedEvent {
  return {
    type: 'decision',
    request_id: `req-${i.toString(36).padStart(8, '0')}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: i % 3 === 0,
    chain: [
      { seat: 'max-a', model: 'claude-sonnet-4-5', state: 'healthy', reason: null },
      { seat: 'team', model: 'claude-sonnet-4-5', state: 'healthy', reason: null },
    ],
    attempts: [
      { seat: 'max-a', model: 'claude-sonnet-4-5', outcome: 'http_402', status: 402, ms: 12 },
      { seat: 'team', model: 'claude-sonnet-4-5', outcome: 'ok', status: 200, ms: 340 },
    ],
    served_by: 'team/claude-sonnet-4-5',
    status: 200,
    duration_ms: 353,
    fail_open: false,
  };
}

/** A breaker trip as the influence engine reports one. */
export function sampleBreaker(i: number): UnstampedEvent {
  return {
    type: 'breaker',
    action: 'tripped',
    scope: 'seat_credit',
    seat: 'max-a',
    model: null,
    reason: 'http_402',
    cooldown_ms: 60_000,
    until: 1_700_000_000_000 + i,
    failed_probes: 0,
  };
}

/** Mostly decisions with a breaker change now and then, like a busy daemon. */
export function sampleEvent(i: number): UnstampedEvent {
  return i % 10 === 0 ? sampleBreaker(i) : sampleDecision(i);
}
