import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlSnapshot } from './support.js';

/**
 * `model_error` over real HTTP: 529,
 * `overloaded_error` at any status, and every 5xx are the target's trouble —
 * the error streak of that one target (seat/model), never the seat, and a
 * fail-over.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900, trip_threshold: 2, window_secs: 300 };

const cases = [
  { name: 'Anthropic 529 overloaded_error', provider: 'anthropic', status: 529, body: anthropic.overloaded, type: 'overloaded_error' },
  // the overload is the body's word even when a gateway put another status on it
  { name: 'Anthropic 503 overloaded_error', provider: 'anthropic', status: 503, body: anthropic.overloaded, type: 'overloaded_error' },
  { name: 'Anthropic 500 api_error', provider: 'anthropic', status: 500, body: anthropic.apiError, type: 'api_error' },
  { name: 'Anthropic 504 timeout_error', provider: 'anthropic', status: 504, body: anthropic.timeoutError, type: 'timeout_error' },
  { name: 'OpenAI 503 server_is_overloaded', provider: 'openai', status: 503, body: openai.serverOverloaded, type: 'server_error' },
] as const;

describe('model_error: the target, by its streak', () => {
  it.each(cases)('$name: fails over; trip_threshold answers in a row trip that target only', async (c) => {
    fx = await startTwoSeats({ provider: c.provider, influence, behaviourA: answer(c.status, c.body) });

    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const first = await fx.t.events.nextDecision();
    expect(attemptsOf(first)).toEqual([
      ['a/model-a', 'http_5xx', c.status, 'model_error'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(first.attempts[0]!.signal).toMatchObject({ status: c.status, type: c.type });
    // one failure is a streak, not a breaker
    expect(fx.t.events.all(isBreaker())).toEqual([]);
    const before = await controlSnapshot(fx.t);
    expect(before.seats.find((s) => s.id === 'a')!.models).toEqual([{ model: 'model-a', streak: 1, breaker: null }]);

    await ask(fx.t, c.provider);
    const second = await fx.t.events.nextDecision();
    expect(attemptsOf(second)[0]).toEqual(['a/model-a', 'http_5xx', c.status, 'model_error']);
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({
      key: 'errors:a/model-a',
      scope: 'model',
      seat: 'a',
      model: 'model-a',
      reason: '2 consecutive failures',
      cooldown_ms: 60_000,
      signal: second.attempts[0]!.signal,
    });
    expect(trip.breaker).toMatchObject({ kind: 'errors', scope: 'model', phase: 'open', reset_at: null });

    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([trip.breaker]);
    // the seat itself is not benched
    expect(snap.seats.find((s) => s.id === 'a')).toMatchObject({ credit: null, rate_limit: null });
    expect(snap.routes[0]!.chain.map((e) => [e.seat, e.state, e.reasons])).toEqual([
      ['b', 'healthy', []],
      ['a', 'tripped', ['model_errors']],
    ]);
  });
});
