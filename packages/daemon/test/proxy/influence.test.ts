import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker, isDecision } from '../helpers/events.js';
import { deferred, respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { SHORT_COOLDOWN_SECS } from '../helpers/test-timing.js';

/** The breaker learning across requests, observed over real HTTP. */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

describe('influence across requests', () => {
  it('a 402 on seat A makes the next request go to seat B first', async () => {
    fx = await startTwoSeats({ influence: { enabled: true, cooldown_secs: 60 }, behaviourA: respond.status(402) });
    const first = await fx.t.post(CHAT, chatBody());
    expect(first.headers.get('x-routeplane-attempts')).toBe('2');
    await fx.t.events.nextDecision();

    const second = await fx.t.post(CHAT, chatBody());
    expect(second.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(second.headers.get('x-routeplane-attempts')).toBe('1');
    const d = await fx.t.events.nextDecision();
    expect(d.chain).toEqual([
      { seat: 'b', model: 'model-b', state: 'healthy', reason: null, pinned: false, left_ms: null },
      { seat: 'a', model: 'model-a', state: 'tripped', reason: 'credit', pinned: false, left_ms: expect.any(Number) },
    ]);
    expect(d.attempts.map((a) => a.seat)).toEqual(['b']);
    expect(fx.a.requests).toHaveLength(1);
  });

  it('with influence disabled the order never changes', async () => {
    fx = await startTwoSeats({ influence: { enabled: false }, behaviourA: respond.status(402) });
    await fx.t.post(CHAT, chatBody());
    await fx.t.post(CHAT, chatBody());
    expect(fx.a.requests).toHaveLength(2);
    await fx.t.events.nextDecision();
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => a.seat)).toEqual(['a', 'b']);
  });

  it('after the cooldown exactly one of 10 concurrent requests reaches A (the probe)', async () => {
    fx = await startTwoSeats({ influence: { enabled: true, cooldown_secs: SHORT_COOLDOWN_SECS }, behaviourA: respond.status(402) });
    await fx.t.post(CHAT, chatBody());
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.nextDecision();
    await fx.a.nextRequest(); // the 402
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    // A holds its answer until the nine others are done, so every plan is made while A is still tripped.
    const release = deferred<void>();
    fx.a.setDefault(async (req, res) => {
      await release.promise;
      respond.openaiChat()(req, res);
    });
    const before = fx.a.requests.length;
    const responses = Array.from({ length: 10 }, () => fx!.t.post(CHAT, chatBody()));

    const servedByB = [];
    for (let i = 0; i < 9; i++) servedByB.push(await fx.t.events.take(isDecision));
    expect(servedByB.every((d) => d.served_by === 'b/model-b')).toBe(true);
    await fx.a.nextRequest(); // the probe, held
    expect(fx.a.requests.length - before).toBe(1);
    release.resolve();

    const all = await Promise.all(responses);
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(all.filter((r) => r.headers.get('x-routeplane-target') === 'a/model-a')).toHaveLength(1);
    const probe = await fx.t.events.nextDecision();
    expect(probe.served_by).toBe('a/model-a');
    expect(probe.chain[0]).toEqual({ seat: 'a', model: 'model-a', state: 'probe', reason: 'credit', pinned: false, left_ms: null });
    await fx.t.events.take(isBreaker('cleared', 'a'));
    expect(fx.a.requests.length - before).toBe(1);
  });

  it('counts fail-open requests when every target is tripped', async () => {
    fx = await startTwoSeats({
      influence: { enabled: true, cooldown_secs: 60 },
      behaviourA: respond.status(402),
      behaviourB: respond.status(402),
    });
    const first = await fx.t.post(CHAT, chatBody());
    expect(first.status).toBe(402);
    await fx.t.events.nextDecision();
    await fx.t.post(CHAT, chatBody());
    const d = await fx.t.events.nextDecision();
    expect(d.fail_open).toBe(true);
    expect(d.attempts.map((a) => a.seat)).toEqual(['a', 'b']);
    expect(fx.t.context.counters).toMatchObject({ requests: 2, fail_open: 1, failovers: 2 });
  });
});
