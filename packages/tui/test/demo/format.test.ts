import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { BreakerEvent, DecisionEvent } from '@routeplane/shared';
import { breakerLine, decisionLine, sceneLine, storyClock, storySpan, summaryLine } from '../../src/demo/log/format.js';
import { countEvent, emptyTally } from '../../src/demo/log/tally.js';

const plain = new Chalk({ level: 0 });
const START = 1_700_000_000_000;
// speed 4: one real second is four scenario seconds
const time = { startedAt: START, speed: 4 };

function decision(over: Partial<DecisionEvent>): DecisionEvent {
  return {
    type: 'decision',
    seq: 1,
    ts: START + 3_000,
    request_id: 'r1',
    route: 'sonnet',
    family: 'anthropic',
    stream: false,
    chain: [
      { seat: 'seat-a', model: 'claude-sonnet-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'seat-b', model: 'claude-sonnet-5', state: 'healthy', reason: null, pinned: false, left_ms: null },
    ],
    attempts: [
      { seat: 'seat-a', model: 'claude-sonnet-5', outcome: 'http_402', status: 402, ms: 40, evidence: 'credit', signal: null, retry: 0 },
      { seat: 'seat-b', model: 'claude-sonnet-5', outcome: 'ok', status: 200, ms: 600, evidence: 'ok', signal: null, retry: 0 },
    ],
    served_by: 'seat-b/claude-sonnet-5',
    status: 200,
    duration_ms: 640,
    fail_open: false,
    requested: 'sonnet',
    agent: null,
    lane: 'foreground',
    session: null,
    balance: 'ordered',
    skipped: false,
    usage: null,
    cost: null,
    client: null,
    ...over,
  };
}

function breaker(over: Partial<BreakerEvent>): BreakerEvent {
  return {
    type: 'breaker',
    seq: 2,
    ts: START + 2_500,
    action: 'tripped',
    scope: 'seat_credit',
    seat: 'seat-a',
    model: null,
    reason: 'http_402',
    cooldown_ms: 2_000,
    until: START + 4_500,
    failed_probes: 0,
    key: 'credit:seat-a',
    breaker: null,
    signal: null,
    origin: 'demo-host:1',
    ...over,
  };
}

describe('demo log lines', () => {
  it('tells time and spans in scenario seconds', () => {
    expect(storyClock(START + 3_000, time)).toBe('0:12.0');
    expect(storyClock(START + 16_025, time)).toBe('1:04.1');
    expect(storySpan(2_000, time)).toBe('8s');
    expect(storySpan(1_530, time)).toBe('6.1s');
  });

  it('writes a decision as the one decision line does, in scenario time: route, status, ms, attempt path', () => {
    const line = decisionLine(decision({}), time, plain);
    expect(line).toBe('0:12.0 sonnet    200   640ms seat-a 402 → seat-b/claude-sonnet-5 ok');
  });

  it('marks a fail-open request and a probe', () => {
    const failOpen = decisionLine(decision({ fail_open: true, status: 429 }), time, plain);
    expect(failOpen).toContain('fail-open');
    const probe = decisionLine(
      decision({
        chain: [{ seat: 'seat-a', model: 'claude-sonnet-5', state: 'probe', reason: 'credit', pinned: false, left_ms: null }],
        stream: true,
      }),
      time,
      plain,
    );
    expect(probe).toMatch(/ seat-a probe 402 → seat-b\/claude-sonnet-5 ok stream$/);
  });

  it('writes breaker events with scope, target and what changed', () => {
    expect(breakerLine(breaker({}), time, plain)).toMatch(/^0:10\.0 {2}◆ tripped +seat_credit +seat-a +cooldown 8s {2}\(http_402\)$/);
    expect(
      breakerLine(breaker({ action: 'probe_failed', cooldown_ms: 4_000, failed_probes: 1, reason: 'probe failed: http_402' }), time, plain),
    ).toMatch(/◆ probe_failed +seat_credit +seat-a +cooldown 16s {2}failed probes 1 {2}\(probe failed: http_402\)$/);
    expect(breakerLine(breaker({ scope: 'seat_rate_limit', seat: 'seat-b', cooldown_ms: 1_500, reason: 'http_429' }), time, plain)).toMatch(
      /retry-after 6s/,
    );
    expect(
      breakerLine(
        breaker({ scope: 'model', seat: 'seat-c', model: 'gpt-4o', action: 'cleared', cooldown_ms: null, reason: 'probe succeeded' }),
        time,
        plain,
      ),
    ).toMatch(/◆ cleared +model +seat-c\/gpt-4o +\(probe succeeded\)$/);
    // a claim repeats no cooldown
    expect(breakerLine(breaker({ action: 'probe_claimed', reason: 'probe claimed' }), time, plain)).not.toMatch(/cooldown/);
  });

  it("writes a quota's wait as the provider's reset, and what the provider said", () => {
    const quota = breaker({
      scope: 'seat_quota',
      seat: 'seat-b',
      key: 'quota:seat-b',
      cooldown_ms: null,
      until: START + 2_500 + 3_750,
      reason: 'http_429',
      signal: { status: 429, type: 'rate_limit_error', code: null, header: 'anthropic-ratelimit-unified-reset: 1700000006', message: null },
    });
    expect(breakerLine(quota, time, plain)).toMatch(
      /◆ tripped +seat_quota +seat-b +resets in 15s {2}\(http_429\) {2}429 rate_limit_error$/,
    );
  });

  it('writes a new scene of the story, and a replay', () => {
    const scene = { index: 3, total: 10, loop: 1, say: 'seat-b is rate-limited', sinceLoopStart: 10 };
    expect(sceneLine(scene, START + 2_500, time, plain)).toBe('0:10.0  ▶ scene 3/10: seat-b is rate-limited');
    expect(sceneLine({ ...scene, index: 1, loop: 2, sinceLoopStart: 0 }, START + 15_000, time, plain)).toBe(
      '1:00.0  ▶ the story starts again (loop 2) · scene 1/10: seat-b is rate-limited',
    );
  });

  it('writes v2 breaker events: a provider breaker by its path, a refused count from the breaker it carries', () => {
    const provider = breaker({
      scope: 'provider_model',
      seat: null,
      model: 'claude-sonnet-5',
      key: 'errors:provider:http://127.0.0.1:9/claude-sonnet-5',
      reason: '3 consecutive failures',
    });
    expect(breakerLine(provider, time, plain)).toMatch(
      /◆ tripped +provider_model +provider:http:\/\/127\.0\.0\.1:9\/claude-sonnet-5 +cooldown 8s/,
    );
    const held = {
      key: 'credit:seat-a',
      kind: 'credit',
      scope: 'seat',
      seat: 'seat-a',
      upstream: null,
      model: null,
      phase: 'open',
      since: START,
      until: START + 4_500,
      reset_at: null,
      cooldown_ms: 2_000,
      failed_probes: 0,
      refused_count: 7,
      skipped_count: 0,
      claimed_at: null,
      signal: null,
    } as const;
    expect(breakerLine(breaker({ action: 'refused', reason: 'refused', breaker: held }), time, plain)).toMatch(
      /◆ refused +seat_credit +seat-a +refused 7 {2}\(refused\)$/,
    );
  });

  it('adds up events and agents into one summary line', () => {
    const tally = emptyTally();
    countEvent(tally, decision({}));
    countEvent(tally, decision({ fail_open: true, attempts: [] }));
    countEvent(tally, breaker({}));
    countEvent(tally, breaker({ scope: 'model', model: 'gpt-4o' }));
    countEvent(tally, breaker({ action: 'probe_failed' }));
    countEvent(tally, breaker({ action: 'cleared' }));
    expect(tally).toEqual({
      decisions: 2,
      failovers: 1,
      failOpen: 1,
      trips: { seat_credit: 1, seat_rate_limit: 0, model: 1, seat_quota: 0, model_quota: 0, seat_key: 0, provider_model: 0 },
      probesClaimed: 0,
      probesFailed: 1,
      cleared: 1,
    });
    const agents = { sent: 10, received: 10, transportErrors: 0, aborted: 0, errorStatuses: 2, incomplete: 0 };
    expect(summaryLine(agents, tally)).toBe(
      'summary: 10 requests sent, 10 responses received, 2 error answers, 1 fail-over, 1 fail-open, 2 trips (1 credit, 0 rate-limit, 1 model), 1 failed probe, 1 cleared',
    );
    countEvent(tally, breaker({ scope: 'seat_quota' }));
    expect(summaryLine(agents, tally)).toContain('3 trips (1 credit, 0 rate-limit, 1 model, 1 seat quota)');
    expect(summaryLine({ ...agents, received: 8, aborted: 2 }, tally)).toContain(
      '8 responses received (2 without a response: 0 transport errors, 2 cut at stop)',
    );
  });
});
