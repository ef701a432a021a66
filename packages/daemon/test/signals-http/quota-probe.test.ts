import type { BreakerEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker, isDecision } from '../helpers/events.js';
import { deferred, respond } from '../helpers/fake-upstream.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlProbe, controlSnapshot, epochSecondsIn } from './support.js';

/**
 * A quota's deadline and its one probe, over real HTTP: when the stated reset passes the breaker becomes
 * probe-ready (a timer, not lazily), exactly one request may try it however
 * many arrive, a success clears it, and a failure re-trips it — a quota answer
 * with its new reset, any other failure with the credit cooldown doubled per
 * failed probe. `max_quota_secs: 1` keeps the hold at its 1 s floor whatever
 * reset the provider states.
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const COOLDOWN_MS = 200;
const influence = { enabled: true, cooldown_secs: COOLDOWN_MS / 1000, max_cooldown_secs: 900, max_quota_secs: 1 };

function unifiedRejected(resetSecs: number): Record<string, string> {
  return {
    'anthropic-ratelimit-unified-status': 'rejected',
    'anthropic-ratelimit-unified-reset': String(resetSecs),
    'anthropic-ratelimit-unified-representative-claim': 'five_hour',
  };
}

function codexUsageLimit(resetSecs: number): string {
  return `{"error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":${resetSecs},"resets_in_seconds":${resetSecs - epochSecondsIn(0)}}}`;
}

describe('quota → one probe at the deadline', () => {
  it('becomes probe-ready when the deadline passes; of 20 concurrent requests exactly one probes; its success clears', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence,
      behaviourA: answer(429, anthropic.accountRateLimit, unifiedRejected(epochSecondsIn(3 * 3600))),
    });
    await ask(fx.t, 'anthropic');
    await fx.t.events.nextDecision();
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip.breaker).toMatchObject({ key: 'quota:a', phase: 'open', cooldown_ms: 1_000 });

    const ready = await fx.t.events.take(isBreaker('probe_ready', 'a'));
    expect(ready).toMatchObject({ key: 'quota:a', reason: 'quota reset passed', breaker: { phase: 'probe_ready' } });
    // announced by the timer once the deadline passed, not before and not when somebody looked
    expect(ready.ts).toBeGreaterThanOrEqual(trip.until!);
    expect(fx.t.events.all(isDecision)).toHaveLength(1);
    // the probe goes to the target in its configured position: first
    expect((await controlSnapshot(fx.t)).routes[0]!.chain.map((e) => [e.seat, e.state])).toEqual([
      ['a', 'probe_ready'],
      ['b', 'healthy'],
    ]);

    // the seat holds its answer until the 19 others are done, so every plan is made while the probe is out
    const release = deferred<void>();
    fx.a.setDefault(async (req, res) => {
      await release.promise;
      respond.anthropicMessage()(req, res);
    });
    const before = fx.a.requests.length;
    const all = Array.from({ length: 20 }, () => ask(fx!.t, 'anthropic'));
    const others = [];
    for (let i = 0; i < 19; i++) others.push(await fx.t.events.nextDecision());
    expect(others.every((d) => d.served_by === 'b/model-b' && d.attempts.length === 1)).toBe(true);
    await fx.a.nextRequest();
    await fx.a.nextRequest(); // the probe (the first was the trip)
    expect(fx.a.requests.length - before).toBe(1);
    release.resolve();

    const texts = await Promise.all(all);
    expect(texts.filter((t) => t === 'hello from model-a')).toHaveLength(1);
    expect(texts.filter((t) => t === 'hello from model-b')).toHaveLength(19);
    const probe = await fx.t.events.nextDecision();
    expect(probe.chain[0]).toMatchObject({ seat: 'a', state: 'probe', reason: 'quota' });
    expect(attemptsOf(probe)).toEqual([['a/model-a', 'ok', 200, 'ok']]);
    expect(fx.t.events.all(isBreaker('probe_claimed'))).toHaveLength(1);
    await fx.t.events.take(isBreaker('cleared', 'a'));
    expect(fx.t.events.all(isBreaker('cleared'))).toEqual([
      expect.objectContaining({ key: 'quota:a', reason: 'probe succeeded', breaker: null }),
    ]);
    expect((await controlSnapshot(fx.t)).breakers).toEqual([]);
    expect(fx.a.requests.length - before).toBe(1);
  });

  it('a failed probe re-trips: a quota answer sets its new reset, another failure doubles the cooldown, a success clears', async () => {
    const firstReset = epochSecondsIn(3 * 3600);
    fx = await startTwoSeats({ provider: 'openai', influence, behaviourA: answer(429, codexUsageLimit(firstReset)) });
    await ask(fx.t, 'openai');
    await fx.t.events.nextDecision();
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip.breaker).toMatchObject({ key: 'quota:a', reset_at: firstReset * 1000, cooldown_ms: 1_000, failed_probes: 0 });

    // 1. the probe gets a quota answer with a later reset
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    const laterReset = epochSecondsIn(5 * 3600);
    fx.a.setDefault(answer(429, codexUsageLimit(laterReset)));
    expect(await ask(fx.t, 'openai')).toBe('hello from model-b');
    const firstProbe = await fx.t.events.nextDecision();
    expect(firstProbe.chain[0]).toMatchObject({ seat: 'a', state: 'probe', reason: 'quota' });
    expect(attemptsOf(firstProbe)[0]).toEqual(['a/model-a', 'http_429', 429, 'quota']);
    const quotaFailed: BreakerEvent = await fx.t.events.take(isBreaker('probe_failed', 'a'));
    expect(quotaFailed).toMatchObject({
      key: 'quota:a',
      failed_probes: 1,
      cooldown_ms: 1_000,
      signal: { status: 429, type: 'usage_limit_reached' },
      breaker: { phase: 'open', reset_at: laterReset * 1000, failed_probes: 1 },
    });
    expect(quotaFailed.until).toBe(quotaFailed.breaker!.since + 1_000);

    // 2. the next probe meets a server error: the credit cooldown, doubled per failed probe
    // (the 1 s hold was shown above: made probe-ready now rather than waited out)
    await controlProbe(fx.t, 'a');
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    fx.a.setDefault(
      answer(
        500,
        '{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}',
      ),
    );
    expect(await ask(fx.t, 'openai')).toBe('hello from model-b');
    await fx.t.events.nextDecision();
    const errorFailed = await fx.t.events.take(isBreaker('probe_failed', 'a'));
    expect(errorFailed).toMatchObject({ key: 'quota:a', failed_probes: 2, cooldown_ms: COOLDOWN_MS * 4, signal: { status: 500 } });
    expect(errorFailed.until).toBe(errorFailed.breaker!.since + COOLDOWN_MS * 4);
    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([
      expect.objectContaining({ key: 'quota:a', failed_probes: 2, cooldown_ms: COOLDOWN_MS * 4, phase: 'open' }),
    ]);

    // 3. the provider's books are right again
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    fx.a.setDefault(respond.openaiChat());
    expect(await ask(fx.t, 'openai')).toBe('hello from model-a');
    await fx.t.events.take(isBreaker('cleared', 'a'));
    expect((await controlSnapshot(fx.t)).breakers).toEqual([]);
    expect(fx.t.events.all(isBreaker('probe_claimed'))).toHaveLength(3);
  });

  it('a probe that meets a plain rate limit fails and sets the seat’s rate-limit deadline beside the quota; no probe before it passes', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence,
      behaviourA: answer(429, openai.codexUsageLimitInSecondsOnly),
    });
    await ask(fx.t, 'openai');
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await controlProbe(fx.t, 'a');
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    // the probe meets a plain rate limit: the probe fails and the seat also gets its rate-limit deadline
    fx.a.setDefault(answer(429, openai.rateLimitExceeded, { 'retry-after': '600' }));
    await ask(fx.t, 'openai');
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('probe_failed', 'a'));
    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers.map((b) => b.key).sort()).toEqual(['quota:a', 'rate_limit:a']);
    expect(snap.seats.find((s) => s.id === 'a')!.rate_limit).toMatchObject({ until: expect.any(Number) });

    // the quota's doubled cooldown passes, but the seat's rate-limit deadline has not: no probe goes to it
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    const before = fx.a.requests.length;
    expect(await ask(fx.t, 'openai')).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.chain[1]).toMatchObject({ seat: 'a', state: 'tripped' });
    expect(attemptsOf(d)).toEqual([['b/model-b', 'ok', 200, 'ok']]);
    expect(fx.a.requests.length).toBe(before);
  });
});
