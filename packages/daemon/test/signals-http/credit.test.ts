import type { Signal } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai, openrouter } from '../signals/fixtures.js';
import { askWithSdk } from './sdk.js';
import { answer, attemptsOf, controlSnapshot, controlStatus } from './support.js';

/**
 * `credit` over real HTTP: every way a
 * provider says "this account has no money" — not only a 402 — trips the seat
 * on the first answer, fails over, and sends the next wave straight to the
 * sibling. Seen through the decision, the breaker event and the snapshot.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const COOLDOWN_MS = 60_000;
const influence = { enabled: true, cooldown_secs: COOLDOWN_MS / 1000, max_cooldown_secs: 900 };

interface CreditCase {
  name: string;
  provider: 'openai' | 'anthropic';
  status: number;
  body: string;
  outcome: string;
  signal: Signal;
}

const cases: CreditCase[] = [
  {
    name: 'OpenAI 429 insufficient_quota',
    provider: 'openai',
    status: 429,
    body: openai.insufficientQuota,
    outcome: 'http_429',
    signal: {
      status: 429,
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      header: null,
      message:
        'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    },
  },
  {
    name: 'OpenAI 429 insufficient_quota / project_spend_limit_exceeded',
    provider: 'openai',
    status: 429,
    body: openai.quotaCode('project_spend_limit_exceeded'),
    outcome: 'http_429',
    signal: {
      status: 429,
      type: 'insufficient_quota',
      code: 'project_spend_limit_exceeded',
      header: null,
      message: 'Your organization has no remaining quota.',
    },
  },
  {
    name: 'OpenRouter 402 insufficient credits',
    provider: 'openai',
    status: 402,
    body: openrouter.insufficientCredits,
    outcome: 'http_402',
    signal: {
      status: 402,
      type: null,
      code: '402',
      header: null,
      message: 'Your account or API key has insufficient credits. Add more credits and retry the request.',
    },
  },
  {
    name: 'Anthropic 400 "credit balance is too low"',
    provider: 'anthropic',
    status: 400,
    body: anthropic.creditTooLow,
    outcome: 'http_4xx',
    signal: {
      status: 400,
      type: 'invalid_request_error',
      code: null,
      header: null,
      message: 'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    },
  },
  {
    name: 'Anthropic 402 billing_error',
    provider: 'anthropic',
    status: 402,
    body: anthropic.billing,
    outcome: 'http_402',
    signal: { status: 402, type: 'billing_error', code: null, header: null, message: 'There is an issue with your billing details.' },
  },
];

describe('credit: the seat is out of money, whatever the status', () => {
  it.each(cases)('$name: trips the seat at once, fails over, and the next request goes to the sibling first', async (c) => {
    fx = await startTwoSeats({ provider: c.provider, influence, behaviourA: answer(c.status, c.body) });

    expect(await askWithSdk(fx.t, c.provider)).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', c.outcome, c.status, 'credit'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toEqual(c.signal);
    expect(d.attempts[1]!.signal).toBeNull();

    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({
      key: 'credit:a',
      scope: 'seat_credit',
      seat: 'a',
      model: null,
      cooldown_ms: COOLDOWN_MS,
      signal: c.signal,
    });
    expect(trip.breaker).toMatchObject({
      key: 'credit:a',
      kind: 'credit',
      scope: 'seat',
      seat: 'a',
      model: null,
      phase: 'open',
      reset_at: null,
      cooldown_ms: COOLDOWN_MS,
      failed_probes: 0,
      signal: c.signal,
    });
    expect(trip.until).toBe(trip.breaker!.since + COOLDOWN_MS);
    expect(trip.breaker!.until).toBe(trip.until);

    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([trip.breaker]);
    expect(snap.seats.find((s) => s.id === 'a')!.credit).toMatchObject({ cooldown_ms: COOLDOWN_MS, probe_ready_at: trip.until });
    expect(snap.routes[0]!.chain.map((e) => [e.seat, e.state, e.reasons, e.until])).toEqual([
      ['b', 'healthy', [], null],
      ['a', 'tripped', ['credit'], trip.until],
    ]);
    const status = await controlStatus(fx.t);
    expect(status.open).toEqual([expect.objectContaining({ scope: 'seat_credit', seat: 'a', reason: 'credit', signal: c.signal })]);

    // the next wave pays no wasted first hop into the empty seat
    expect(await askWithSdk(fx.t, c.provider)).toBe('hello from model-b');
    const next = await fx.t.events.nextDecision();
    expect(next.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['b', 'healthy', null],
      ['a', 'tripped', 'credit'],
    ]);
    expect(attemptsOf(next)).toEqual([['b/model-b', 'ok', 200, 'ok']]);
    expect(fx.a.requests).toHaveLength(1);
  });
});
