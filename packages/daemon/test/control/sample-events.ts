import type { DecisionEvent, UnstampedEvent } from '@routeplane/shared';

/** The v2 fields of a decision with nothing special about them. */
export const DECISION_DEFAULTS = {
  requested: 'sonnet',
  agent: null,
  lane: 'foreground',
  session: null,
  balance: 'ordered',
  skipped: false,
  usage: null,
  cost: null,
  client: null,
} satisfies Partial<DecisionEvent>;

/** A decision as the proxy records one: a 402 on the first seat, served by the second. */
export function sampleDecision(i: number): UnstampedEvent {
  return {
    type: 'decision',
    request_id: `req-${i.toString(36).padStart(8, '0')}`,
    route: 'sonnet',
    family: 'anthropic',
    stream: i % 3 === 0,
    chain: [
      { seat: 'max-a', model: 'claude-sonnet-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'team', model: 'claude-sonnet-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
    ],
    attempts: [
      { seat: 'max-a', model: 'claude-sonnet-5', outcome: 'http_402', status: 402, ms: 12, evidence: 'credit', signal: null, retry: 0 },
      { seat: 'team', model: 'claude-sonnet-5', outcome: 'ok', status: 200, ms: 340, evidence: 'ok', signal: null, retry: 0 },
    ],
    served_by: 'team/claude-sonnet-5',
    status: 200,
    duration_ms: 353,
    fail_open: false,
    ...DECISION_DEFAULTS,
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
    key: 'credit:max-a',
    breaker: null,
    signal: null,
    origin: 'test:1',
  };
}

/** Mostly decisions with a breaker change now and then, like a busy daemon. */
export function sampleEvent(i: number): UnstampedEvent {
  return i % 10 === 0 ? sampleBreaker(i) : sampleDecision(i);
}
