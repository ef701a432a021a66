import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlSnapshot, rfc3339In } from './support.js';

/**
 * `rate_limit` over real HTTP: the plain 429
 * rule — a seat-wide deadline, no probe — with the wait read from
 * `retry-after-ms`, else `Retry-After`, else the reset headers (the latest
 * reset among limits whose `-remaining` is 0, else the earliest), clamped to
 * [1 s, max_cooldown_secs]; Gemini's short RetryInfo is a rate limit too.
 * The hold is read from the breaker: `cooldown_ms` and `until − since`.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const MAX_COOLDOWN_MS = 900_000;
const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: MAX_COOLDOWN_MS / 1000 };

interface RateLimitCase {
  name: string;
  provider: 'openai' | 'anthropic';
  /**
   * Built when the test runs: the answer, and the hold it must give — `waitMs`
   * for a duration (to the ms), `untilAt` for a time of day (to within a
   * second: the wait is counted from when the answer arrived, the breaker from
   * when it was recorded).
   */
  make(): { body: string; headers: Record<string, string>; header: string | null } & ({ waitMs: number } | { untilAt: number });
}

const anthropicLimitHeaders = (parts: Array<[limit: string, remaining: string, resetText: string]>) => {
  const headers: Record<string, string> = {};
  for (const [limit, remaining, reset] of parts) {
    headers[`anthropic-ratelimit-${limit}-limit`] = '50000';
    headers[`anthropic-ratelimit-${limit}-remaining`] = remaining;
    headers[`anthropic-ratelimit-${limit}-reset`] = reset;
  }
  return headers;
};

const cases: RateLimitCase[] = [
  {
    name: 'Retry-After in seconds',
    provider: 'openai',
    make: () => ({ body: openai.rateLimitExceeded, headers: { 'retry-after': '20' }, waitMs: 20_000, header: 'retry-after: 20' }),
  },
  {
    name: 'Retry-After as an HTTP-date',
    provider: 'anthropic',
    make() {
      const at = rfc3339In(40);
      const date = new Date(at.ms).toUTCString();
      return { body: anthropic.tokensPerMinute, headers: { 'retry-after': date }, untilAt: at.ms, header: `retry-after: ${date}` };
    },
  },
  {
    name: 'retry-after-ms wins over Retry-After',
    provider: 'openai',
    make: () => ({
      body: openai.slowDown,
      headers: { 'retry-after-ms': '2500', 'retry-after': '20' },
      waitMs: 2_500,
      header: 'retry-after-ms: 2500',
    }),
  },
  {
    name: 'Anthropic RFC 3339 resets: the latest among the limits whose remaining is 0',
    provider: 'anthropic',
    make() {
      const requests = rfc3339In(40);
      const tokens = rfc3339In(90);
      const input = rfc3339In(300);
      const headers = anthropicLimitHeaders([
        ['requests', '0', requests.text],
        ['tokens', '0', tokens.text],
        ['input-tokens', '1200', input.text],
      ]);
      return { body: anthropic.tokensPerMinute, headers, untilAt: tokens.ms, header: `anthropic-ratelimit-tokens-reset: ${tokens.text}` };
    },
  },
  {
    name: 'Anthropic RFC 3339 resets, none at 0: the earliest reset',
    provider: 'anthropic',
    make() {
      const requests = rfc3339In(40);
      const tokens = rfc3339In(90);
      const headers = anthropicLimitHeaders([
        ['requests', '3', requests.text],
        ['tokens', '150', tokens.text],
      ]);
      return {
        body: anthropic.tokensPerMinute,
        headers,
        untilAt: requests.ms,
        header: `anthropic-ratelimit-requests-reset: ${requests.text}`,
      };
    },
  },
  {
    name: 'OpenAI Go-duration resets: the exhausted limit decides even when another resets sooner',
    provider: 'openai',
    make: () => ({
      body: openai.rateLimitExceeded,
      headers: {
        'x-ratelimit-limit-requests': '500',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '6m0s',
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '29000',
        'x-ratelimit-reset-tokens': '12ms',
      },
      waitMs: 360_000,
      header: 'x-ratelimit-reset-requests: 6m0s',
    }),
  },
  {
    name: 'OpenAI Go-duration reset beyond max_cooldown_secs: clamped',
    provider: 'openai',
    make: () => ({
      body: openai.rateLimitExceeded,
      headers: {
        'x-ratelimit-limit-tokens': '30000',
        'x-ratelimit-remaining-tokens': '0',
        'x-ratelimit-reset-tokens': '1h2m3.5s',
      },
      waitMs: MAX_COOLDOWN_MS,
      header: 'x-ratelimit-reset-tokens: 1h2m3.5s',
    }),
  },
  {
    name: 'Gemini RESOURCE_EXHAUSTED with a short RetryInfo',
    provider: 'openai',
    make: () => ({ body: openai.geminiPerMinute, headers: {}, waitMs: 30_000, header: null }),
  },
  {
    name: 'nothing usable (a past reset, a garbage Retry-After): the 1 s floor',
    provider: 'anthropic',
    make: () => ({
      body: anthropic.tokensPerMinute,
      headers: { 'retry-after': 'soon', ...anthropicLimitHeaders([['requests', '0', rfc3339In(-30).text]]) },
      waitMs: 1_000,
      header: null,
    }),
  },
];

describe('rate_limit: a seat-wide deadline from what the answer says', () => {
  it.each(cases)('$name', async (c) => {
    const made = c.make();
    fx = await startTwoSeats({ provider: c.provider, influence, behaviourA: answer(429, made.body, made.headers) });
    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_429', 429, 'rate_limit'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    const signal = d.attempts[0]!.signal!;
    expect(signal).toMatchObject({ status: 429, header: made.header });

    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'rate_limit:a', scope: 'seat_rate_limit', seat: 'a', model: null, signal });
    const b = trip.breaker!;
    expect(b).toMatchObject({ kind: 'rate_limit', scope: 'seat', phase: 'open', reset_at: null, signal });
    expect(b.until).toBe(b.since + b.cooldown_ms!);
    if ('waitMs' in made) expect(b.cooldown_ms).toBe(made.waitMs);
    else expect(Math.abs(b.until! - made.untilAt)).toBeLessThan(1_000);

    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([b]);
    expect(snap.seats.find((s) => s.id === 'a')!.rate_limit).toEqual({ since: b.since, until: b.until, refused_count: 0 });
    expect(snap.routes[0]!.chain.map((e) => [e.seat, e.state, e.reasons])).toEqual([
      ['b', 'healthy', []],
      ['a', 'tripped', ['rate_limit']],
    ]);
  });

  it("Gemini's RetryInfo signal names no header: the delay came from the body", async () => {
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: answer(429, openai.geminiPerMinute) });
    await ask(fx.t, 'openai');
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip.signal).toEqual({
      status: 429,
      type: 'RESOURCE_EXHAUSTED',
      code: '429',
      header: null,
      message: 'Resource has been exhausted (e.g. check quota).',
    });
  });
});
