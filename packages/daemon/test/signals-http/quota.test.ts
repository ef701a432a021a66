import type { Signal } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, byModel, controlSnapshot, controlStatus, epochSecondsIn, nextMonthUtc } from './support.js';

/**
 * `quota` over real HTTP: a used-up subscription window or spend cap holds the seat (or, for a
 * per-model weekly cap, only that target) until the provider's stated reset,
 * clamped to [1 s, max_quota_secs]. The deadline is read from the breaker
 * itself: `until − since` is the hold, `reset_at` what the provider said.
 */

let fx: TwoSeats | null = null;
let upstreams: FakeUpstream[] = [];
let daemon: TestDaemon | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
  await daemon?.close();
  daemon = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const WEEK_MS = 604_800_000;
const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900 };

/** A Claude subscription that used a window: unified status rejected, the reset in epoch seconds, the binding claim. */
function unifiedRejected(resetSecs: number, claim: string): Record<string, string> {
  return {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(resetSecs),
    'anthropic-ratelimit-unified-representative-claim': claim,
    'anthropic-ratelimit-unified-5h-status': claim === 'five_hour' ? 'rejected' : 'allowed',
    'anthropic-ratelimit-unified-5h-reset': String(resetSecs),
    'anthropic-ratelimit-unified-5h-utilization': claim === 'five_hour' ? '1.01' : '0.3',
    'anthropic-ratelimit-unified-7d-status': 'allowed',
    'anthropic-ratelimit-unified-7d-reset': String(resetSecs + 86_400),
    'anthropic-ratelimit-unified-7d-utilization': '0.42',
    'x-should-retry': 'true',
  };
}

const accountRateLimitMessage = "This request would exceed your account's rate limit. Please try again later.";

interface SeatQuotaCase {
  name: string;
  provider: 'openai' | 'anthropic';
  /** the answer, built when the test runs (resets are relative to now) */
  make(): { status: number; body: string; headers: Record<string, string>; resetAt: number };
  maxQuotaSecs?: number;
  signal: (resetAt: number) => Signal;
}

const seatCases: SeatQuotaCase[] = [
  {
    name: 'Anthropic unified window rejected (five_hour)',
    provider: 'anthropic',
    make() {
      const reset = epochSecondsIn(3 * 3600);
      return { status: 429, body: anthropic.accountRateLimit, headers: unifiedRejected(reset, 'five_hour'), resetAt: reset * 1000 };
    },
    signal: (resetAt) => ({
      status: 429,
      type: 'rate_limit_error',
      code: null,
      header: `anthropic-ratelimit-unified-reset: ${resetAt / 1000}`,
      message: accountRateLimitMessage,
    }),
  },
  {
    name: 'Codex usage_limit_reached (resets_at wins over resets_in_seconds)',
    provider: 'openai',
    make() {
      const reset = epochSecondsIn(2 * 86_400);
      const body = `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":${reset},"resets_in_seconds":13872}}`;
      return { status: 429, body, headers: {}, resetAt: reset * 1000 };
    },
    signal: () => ({ status: 429, type: 'usage_limit_reached', code: null, header: null, message: 'The usage limit has been reached' }),
  },
  {
    name: 'Codex usage_limit_reached with resets_in_seconds only',
    provider: 'openai',
    make() {
      return { status: 429, body: openai.codexUsageLimitInSecondsOnly, headers: {}, resetAt: Date.now() + 13_872_000 };
    },
    signal: () => ({ status: 429, type: 'usage_limit_reached', code: null, header: null, message: 'The usage limit has been reached' }),
  },
  {
    name: 'Anthropic monthly spend limit (no Retry-After): until 00:00 UTC on the 1st, clamped to max_quota_secs',
    provider: 'anthropic',
    maxQuotaSecs: 3600,
    make() {
      return { status: 429, body: anthropic.spendLimit, headers: {}, resetAt: nextMonthUtc(Date.now()) };
    },
    signal: () => ({
      status: 429,
      type: 'rate_limit_error',
      code: 'enforced_spend_limit_reached',
      header: null,
      message: 'You have reached your monthly spend limit.',
    }),
  },
  {
    name: 'Gemini RESOURCE_EXHAUSTED with a RetryInfo longer than max_cooldown (wrapped in an array)',
    provider: 'openai',
    make() {
      return { status: 429, body: openai.geminiDaily, headers: {}, resetAt: Date.now() + 515_092_730 };
    },
    signal: () => ({
      status: 429,
      type: 'RESOURCE_EXHAUSTED',
      code: '429',
      header: null,
      message: expect.stringContaining('You exceeded your current quota') as unknown as string,
    }),
  },
];

describe('quota, seat-wide: held until the provider says, then one probe', () => {
  it.each(seatCases)('$name', async (c) => {
    const made = c.make();
    const maxQuotaMs = (c.maxQuotaSecs ?? WEEK_MS / 1000) * 1000;
    fx = await startTwoSeats({
      provider: c.provider,
      influence: { ...influence, ...(c.maxQuotaSecs === undefined ? {} : { max_quota_secs: c.maxQuotaSecs }) },
      behaviourA: answer(made.status, made.body, made.headers),
    });
    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_429', 429, 'quota'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    const signal = c.signal(made.resetAt);
    expect(d.attempts[0]!.signal).toEqual(signal);

    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'quota:a', scope: 'seat_quota', seat: 'a', model: null, signal });
    const b = trip.breaker!;
    expect(b).toMatchObject({ kind: 'quota', scope: 'seat', seat: 'a', model: null, phase: 'open', failed_probes: 0, signal });
    // the provider's own reset, as it said it (a reset computed from a delay may differ by the ms it took to record)
    expect(Math.abs(b.reset_at! - made.resetAt)).toBeLessThan(2_000);
    const statedWait = b.reset_at! - b.since;
    const hold = Math.min(statedWait, maxQuotaMs);
    expect(b.cooldown_ms).toBeGreaterThan(hold - 2_000);
    expect(b.cooldown_ms).toBeLessThanOrEqual(hold + 2_000);
    expect(b.until).toBe(b.since + b.cooldown_ms!);
    if (c.maxQuotaSecs !== undefined) expect(b.cooldown_ms).toBe(maxQuotaMs);
    else expect(b.until).toBe(b.reset_at);
    expect(trip.until).toBe(b.until);

    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([b]);
    // v1's fields keep showing only what they showed
    expect(snap.seats.find((s) => s.id === 'a')).toMatchObject({ credit: null, rate_limit: null });
    expect(snap.routes[0]!.chain.map((e) => [e.seat, e.state, e.reasons, e.until])).toEqual([
      ['b', 'healthy', [], null],
      ['a', 'tripped', ['quota'], b.until],
    ]);
    const status = await controlStatus(fx.t);
    expect(status.open).toEqual([expect.objectContaining({ scope: 'seat_quota', seat: 'a', kind: 'quota', reset_at: b.reset_at })]);

    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const next = await fx.t.events.nextDecision();
    expect(next.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['b', 'healthy', null],
      ['a', 'tripped', 'quota'],
    ]);
    expect(fx.a.requests).toHaveLength(1);
  });

  it('a reset further away than max_quota_secs holds only max_quota_secs; reset_at still says what the provider said', async () => {
    const reset = epochSecondsIn(30 * 86_400);
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence: { ...influence, max_quota_secs: 7200 },
      behaviourA: answer(429, anthropic.accountRateLimit, unifiedRejected(reset, 'seven_day')),
    });
    await ask(fx.t, 'anthropic');
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip.breaker).toMatchObject({ key: 'quota:a', scope: 'seat', reset_at: reset * 1000, cooldown_ms: 7_200_000 });
    expect(trip.until).toBe(trip.breaker!.since + 7_200_000);
  });
});

describe('quota deadlines only move forward', () => {
  it('a later reset extends the quota, an earlier one changes nothing (fail-open attempts, not probes)', async () => {
    const first = epochSecondsIn(3 * 3600);
    const seat = await startFakeUpstream(answer(429, anthropic.accountRateLimit, unifiedRejected(first, 'five_hour')));
    upstreams = [seat];
    daemon = await startTestDaemon({
      seats: [{ id: 'max', provider: 'anthropic', upstream: seat }],
      routes: [{ model: 'claude', chain: [{ seat: 'max', model: 'claude-sonnet-5' }] }],
      influence,
    });
    await ask(daemon, 'anthropic').catch(() => null);
    const trip = await daemon.events.take(isBreaker('tripped', 'max'));
    expect(trip.breaker).toMatchObject({ key: 'quota:max', until: first * 1000, reset_at: first * 1000 });

    // every target tripped: the request goes anyway (fail open) and meets a later reset
    const later = first + 3600;
    seat.setDefault(answer(429, anthropic.accountRateLimit, unifiedRejected(later, 'five_hour')));
    await ask(daemon, 'anthropic').catch(() => null);
    await daemon.events.nextDecision();
    const extended = await daemon.events.take(isBreaker('extended', 'max'));
    expect(extended).toMatchObject({ key: 'quota:max', until: later * 1000, failed_probes: 0 });
    expect(extended.breaker).toMatchObject({ reset_at: later * 1000, signal: { header: `anthropic-ratelimit-unified-reset: ${later}` } });

    // an earlier reset does not pull the deadline back
    seat.setDefault(answer(429, anthropic.accountRateLimit, unifiedRejected(first - 600, 'five_hour')));
    await ask(daemon, 'anthropic').catch(() => null);
    const failOpen = await daemon.events.nextDecision();
    const last = await daemon.events.nextDecision();
    expect([failOpen.fail_open, last.fail_open]).toEqual([true, true]);
    const [breaker] = (await controlSnapshot(daemon)).breakers;
    expect(breaker).toMatchObject({ key: 'quota:max', until: later * 1000, reset_at: later * 1000 });
    // both answers were counted against the open breaker (the second count is announced at the end of its 250 ms window)
    await expect.poll(async () => (await controlSnapshot(daemon!)).breakers[0]?.refused_count).toBe(2);
    expect(daemon.events.all(isBreaker('extended'))).toHaveLength(1);
  });
});

describe('quota, one target: a per-model weekly cap', () => {
  it("seven_day_opus sidelines only opus on that seat: the seat's other models keep serving first", async () => {
    const reset = epochSecondsIn(4 * 86_400);
    const seat = await startFakeUpstream(
      byModel({
        'claude-opus-4-1': answer(429, anthropic.accountRateLimit, unifiedRejected(reset, 'seven_day_opus')),
        'claude-sonnet-5': respond.anthropicMessage(),
      }),
    );
    const sibling = await startFakeUpstream(respond.anthropicMessage());
    upstreams = [seat, sibling];
    daemon = await startTestDaemon({
      seats: [
        { id: 'max', provider: 'anthropic', upstream: seat },
        { id: 'team', provider: 'anthropic', upstream: sibling },
      ],
      routes: [
        {
          model: 'opus',
          chain: [
            { seat: 'max', model: 'claude-opus-4-1' },
            { seat: 'team', model: 'claude-opus-4-1' },
          ],
        },
        {
          model: 'sonnet',
          chain: [
            { seat: 'max', model: 'claude-sonnet-5' },
            { seat: 'team', model: 'claude-sonnet-5' },
          ],
        },
      ],
      influence,
    });

    expect(await ask(daemon, 'anthropic', 'opus')).toBe('hello from claude-opus-4-1');
    const first = await daemon.events.nextDecision();
    expect(attemptsOf(first)).toEqual([
      ['max/claude-opus-4-1', 'http_429', 429, 'quota'],
      ['team/claude-opus-4-1', 'ok', 200, 'ok'],
    ]);
    const trip = await daemon.events.take(isBreaker('tripped', 'max'));
    expect(trip).toMatchObject({ key: 'quota:max/claude-opus-4-1', scope: 'model_quota', seat: 'max', model: 'claude-opus-4-1' });
    expect(trip.breaker).toMatchObject({
      kind: 'quota',
      scope: 'model',
      reset_at: reset * 1000,
      until: reset * 1000,
      signal: { status: 429, header: `anthropic-ratelimit-unified-reset: ${reset}` },
    });

    const snap = await controlSnapshot(daemon);
    const chain = (route: string) => snap.routes.find((r) => r.model === route)!.chain.map((e) => [e.seat, e.state, e.reasons]);
    expect(chain('sonnet')).toEqual([
      ['max', 'healthy', []],
      ['team', 'healthy', []],
    ]);
    expect(chain('opus')).toEqual([
      ['team', 'healthy', []],
      ['max', 'tripped', ['quota']],
    ]);
    expect(snap.breakers.map((b) => b.key)).toEqual(['quota:max/claude-opus-4-1']);

    // the same seat still serves sonnet first…
    expect(await ask(daemon, 'anthropic', 'sonnet')).toBe('hello from claude-sonnet-5');
    const sonnet = await daemon.events.nextDecision();
    expect(attemptsOf(sonnet)).toEqual([['max/claude-sonnet-5', 'ok', 200, 'ok']]);
    // …and a success on another model of the seat does not clear the opus cap
    expect(daemon.events.all(isBreaker('cleared'))).toEqual([]);

    // while opus goes to the sibling without a wasted hop
    await ask(daemon, 'anthropic', 'opus');
    const opus = await daemon.events.nextDecision();
    expect(attemptsOf(opus)).toEqual([['team/claude-opus-4-1', 'ok', 200, 'ok']]);
    expect(seat.requests.map((r) => r.json.model)).toEqual(['claude-opus-4-1', 'claude-sonnet-5']);
  });
});

describe('quota, one target: a success on that target clears it', () => {
  it('seven_day_opus on the only target: the next request goes anyway (fail open), its success clears the target quota', async () => {
    const reset = epochSecondsIn(4 * 86_400);
    const seat = await startFakeUpstream(answer(429, anthropic.accountRateLimit, unifiedRejected(reset, 'seven_day_opus')));
    upstreams = [seat];
    daemon = await startTestDaemon({
      seats: [{ id: 'max', provider: 'anthropic', upstream: seat }],
      routes: [{ model: 'opus', chain: [{ seat: 'max', model: 'claude-opus-4-1' }] }],
      influence,
    });
    await expect(ask(daemon, 'anthropic', 'opus')).rejects.toThrow(/429/);
    const trip = await daemon.events.take(isBreaker('tripped', 'max'));
    expect(trip).toMatchObject({ key: 'quota:max/claude-opus-4-1', scope: 'model_quota' });
    await daemon.events.nextDecision();

    // the provider lifted the cap early: an answer from that very target says so
    seat.setDefault(respond.anthropicMessage());
    expect(await ask(daemon, 'anthropic', 'opus')).toBe('hello from claude-opus-4-1');
    const d = await daemon.events.nextDecision();
    expect(d).toMatchObject({ fail_open: true });
    expect(attemptsOf(d)).toEqual([['max/claude-opus-4-1', 'ok', 200, 'ok']]);
    const cleared = await daemon.events.take(isBreaker('cleared', 'max'));
    expect(cleared).toMatchObject({ key: 'quota:max/claude-opus-4-1', reason: 'success' });
    expect((await controlSnapshot(daemon)).breakers).toEqual([]);
  });
});
