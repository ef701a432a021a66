import type { BreakerEvent, DaemonEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange, expectRefused, MESSAGES, message } from '../policy-http/support.js';

/**
 * Background work over real HTTP: only ever sent to
 * a target that is routable for it, never a probe, never failing open; with
 * nothing routable, a 503 at once that says when to come back.
 */

const BACKGROUND = { 'x-routeplane-lane': 'background' };

let a: FakeUpstream | null = null;
let b: FakeUpstream | null = null;
let t: TestDaemon | null = null;

afterEach(async () => {
  await t?.close();
  await Promise.all([a?.close(), b?.close()]);
  t = a = b = null;
});

/** Seats a then b on route `route`; breakers keep a 60 s cooldown (a test makes one probe-ready with the probe command). */
async function start(provider: 'openai' | 'anthropic'): Promise<{ t: TestDaemon; a: FakeUpstream; b: FakeUpstream }> {
  const ok = provider === 'openai' ? respond.openaiChat() : respond.anthropicMessage();
  a = await startFakeUpstream(ok);
  b = await startFakeUpstream(ok);
  t = await startTestDaemon({
    seats: [
      { id: 'a', provider, upstream: a },
      { id: 'b', provider, upstream: b },
    ],
    routes: [
      {
        model: 'route',
        chain: [
          { seat: 'a', model: 'm-a' },
          { seat: 'b', model: 'm-b' },
        ],
      },
    ],
    influence: { enabled: true, cooldown_secs: 60, max_cooldown_secs: 120 },
  });
  return { t, a, b };
}

const skippedOn =
  (seat: string) =>
  (e: DaemonEvent): e is BreakerEvent =>
    e.type === 'breaker' && e.action === 'skipped' && e.seat === seat;

describe('background work', () => {
  it('goes past a tripped target to a healthy one, never trying it; that counts nowhere', async () => {
    const { t, a, b } = await start('openai');
    a.enqueue(respond.status(402));
    await exchange(t, CHAT, chat('route'));
    await t.events.take(isBreaker('tripped', 'a'));
    const aBefore = a.requests.length;

    const x = await exchange(t, CHAT, chat('route'), BACKGROUND);
    expect(x.res.status).toBe(200);
    expect(x.decision.lane).toBe('background');
    expect(x.decision.skipped).toBe(false);
    expect(x.decision.attempts.map((at) => at.seat)).toEqual(['b']);
    expect(a.requests.length).toBe(aBefore);
    expect(b.requests.length).toBe(2);
    // the chain as the request saw it: the tripped target is explained, not forgotten
    expect(x.res.headers.get('x-routeplane-decision')).toMatch(/^b\/m-b\(healthy\) -> a\/m-a\(tripped: credit, \d+s\)$/);
    expect(t.context.influence.open().find((o) => o.seat === 'a')?.skipped_count).toBe(0);
    expect(t.events.all(skippedOn('a'))).toEqual([]);
  });

  it('never claims a probe: a probe-ready target is left for foreground work', async () => {
    const { t, a } = await start('openai');
    a.enqueue(respond.status(402));
    await exchange(t, CHAT, chat('route'));
    t.context.influence.probe('a');
    await t.events.take(isBreaker('probe_ready', 'a'));
    const aBefore = a.requests.length;

    for (let i = 0; i < 3; i++) {
      const x = await exchange(t, CHAT, chat('route'), BACKGROUND);
      expect(x.decision.served_by).toBe('b/m-b');
      expect(x.res.headers.get('x-routeplane-decision')).toBe('b/m-b(healthy) -> a/m-a(tripped: credit, 0s)');
    }
    expect(a.requests.length).toBe(aBefore);
    expect(t.events.all(isBreaker('probe_claimed'))).toEqual([]);

    // the next foreground request is the probe
    const fg = await exchange(t, CHAT, chat('route'));
    expect(fg.decision.lane).toBe('foreground');
    expect(fg.decision.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    expect(fg.decision.served_by).toBe('a/m-a');
  });

  it('with nothing routable: 503 at once, Retry-After until the earliest target is back, each target named with why', async () => {
    const { t, a, b } = await start('openai');
    a.enqueue(respond.status(402));
    b.enqueue(respond.rateLimited('30'));
    await exchange(t, CHAT, chat('route'));
    await t.events.take(isBreaker('tripped', 'a'));
    await t.events.take(isBreaker('tripped', 'b'));
    const before = a.requests.length + b.requests.length;

    const x = await exchange(t, CHAT, chat('route'), BACKGROUND);
    expectRefused(x, 503);
    // b's rate limit ends in 30 s, a's probe in 60 s: come back in 30 (29 if a second has ticked over)
    expect(Number(x.res.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(x.res.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(x.body.error.message).toMatch(
      /^all targets of route "route" are held back for background work: a\/m-a credit \(probe in (59s|1m00s)\), b\/m-b rate limited \(ends in (29|30)s\)$/,
    );
    expect(x.decision).toMatchObject({ lane: 'background', skipped: true, status: 503, attempts: [], served_by: null });
    expect(x.res.headers.get('x-routeplane-decision')).toMatch(
      /^a\/m-a\(tripped: credit, \d+s\) -> b\/m-b\(tripped: rate_limit, \d+s\)$|^b\/m-b\(tripped: rate_limit, \d+s\) -> a\/m-a\(tripped: credit, \d+s\)$/,
    );
    expect(a.requests.length + b.requests.length).toBe(before);

    // every breaker it stood behind counts it, in the snapshot, /status and a `skipped` event
    const onA = await t.events.take(skippedOn('a'));
    const onB = await t.events.take(skippedOn('b'));
    expect(onA.breaker?.skipped_count).toBe(1);
    expect(onB.breaker?.skipped_count).toBe(1);
    const status = (await (await fetch(`${t.url}/status`)).json()) as { open: Array<{ seat: string; skipped_count: number }> };
    expect(status.open.map((o) => [o.seat, o.skipped_count]).sort()).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(t.context.influence.breakers().map((br) => br.skipped_count)).toEqual([1, 1]);

    // foreground is unchanged: it fails open, and a (answering again) serves it
    const fg = await exchange(t, CHAT, chat('route'));
    expect(fg.decision.fail_open).toBe(true);
    expect(fg.decision.lane).toBe('foreground');
    expect(fg.decision.attempts.map((at) => at.seat)).toEqual(['a']);
    expect(fg.decision.served_by).toBe('a/m-a');
  });

  it('a probe-ready target makes the wait 1 s: it is routable once foreground work has probed it', async () => {
    const { t, a, b } = await start('anthropic');
    a.enqueue(respond.status(402));
    b.enqueue(respond.rateLimited('60'));
    await exchange(t, MESSAGES, message('route'));
    t.context.influence.probe('a');
    await t.events.take(isBreaker('probe_ready', 'a'));

    const x = await exchange(t, MESSAGES, message('route'), BACKGROUND);
    expectRefused(x, 503);
    expect(x.res.headers.get('retry-after')).toBe('1');
    expect(x.body).toMatchObject({ type: 'error', error: { message: expect.stringContaining('a/m-a credit') } });
    expect(x.body.error.message).toContain('b/m-b rate limited (ends in');
    expect(t.events.all(isBreaker('probe_claimed'))).toEqual([]);
  });

  it('a pin to a target routable for it is tried first, as in foreground', async () => {
    const { t, a, b } = await start('openai');
    const x = await exchange(t, CHAT, chat('route'), { ...BACKGROUND, 'x-routeplane-pin': 'b' });
    expect(x.decision.served_by).toBe('b/m-b');
    expect(x.decision.chain[0]).toMatchObject({ seat: 'b', pinned: true });
    expect(x.res.headers.get('x-routeplane-decision')).toBe('b/m-b(pinned) -> a/m-a(healthy)');
    expect(a.requests).toHaveLength(0);
    expect(b.requests).toHaveLength(1);
  });
});
