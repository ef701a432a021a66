import type { BreakerAction, BreakerEvent, DaemonEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker, isDecision } from '../helpers/events.js';
import { deferred, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange } from '../policy-http/support.js';

/**
 * The provider-wide breaker over real HTTP: seats on one upstream (same provider and base_url) share a layer
 * per model; failures from two of them trip it, one seat's failures trip only
 * that target.
 */

const onProvider =
  (action: BreakerAction) =>
  (e: DaemonEvent): e is BreakerEvent =>
    e.type === 'breaker' && e.action === action && e.scope === 'provider_model';

let shared: FakeUpstream | null = null;
let other: FakeUpstream | null = null;
let t: TestDaemon | null = null;

afterEach(async () => {
  await t?.close();
  await Promise.all([shared?.close(), other?.close()]);
  t = shared = other = null;
});

/** Seats p1 and p2 on one upstream (p2's base_url with a trailing slash), p3 on another; route `m` in that order. */
async function start(): Promise<{ t: TestDaemon; shared: FakeUpstream; other: FakeUpstream }> {
  shared = await startFakeUpstream(respond.status(500));
  other = await startFakeUpstream(respond.openaiChat());
  t = await startTestDaemon({
    seats: [
      { id: 'p1', provider: 'openai', upstream: shared },
      { id: 'p2', provider: 'openai', upstream: `${shared.url}/` },
      { id: 'p3', provider: 'openai', upstream: other },
    ],
    routes: [
      {
        model: 'm',
        chain: [
          { seat: 'p1', model: 'model-x' },
          { seat: 'p2', model: 'model-x' },
          { seat: 'p3', model: 'model-x' },
        ],
      },
      {
        model: 'p1-only',
        chain: [
          { seat: 'p1', model: 'model-x' },
          { seat: 'p3', model: 'model-x' },
        ],
      },
      {
        model: 'p2-first',
        chain: [
          { seat: 'p2', model: 'model-x' },
          { seat: 'p3', model: 'model-x' },
        ],
      },
    ],
    influence: { enabled: true, trip_threshold: 3, cooldown_secs: 60, max_cooldown_secs: 120 },
  });
  return { t, shared, other };
}

describe('the provider layer', () => {
  it('failures alternating over two seats of one upstream trip it; the seat on another upstream then serves first', async () => {
    const { t } = await start();
    // p1 and p2 fail (provider streak 2), p3 serves; then p1 fails again: 3 failures from 2 seats
    const first = await exchange(t, CHAT, chat('m'));
    expect(first.decision.attempts.map((a) => [a.seat, a.status])).toEqual([
      ['p1', 500],
      ['p2', 500],
      ['p3', 200],
    ]);
    await exchange(t, CHAT, chat('m'));
    const tripped = await t.events.take(onProvider('tripped'));
    expect(tripped).toMatchObject({ seat: null, model: 'model-x', breaker: { kind: 'errors', scope: 'provider' } });
    // neither seat's own streak reached 3: only the provider layer tripped
    expect(t.events.all(isBreaker('tripped')).map((e) => e.scope)).toEqual(['provider_model']);

    const after = await exchange(t, CHAT, chat('m'));
    expect(after.decision.attempts.map((a) => a.seat)).toEqual(['p3']);
    expect(after.decision.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['p3', 'healthy', null],
      ['p1', 'tripped', 'provider_errors'],
      ['p2', 'tripped', 'provider_errors'],
    ]);
    const status = (await (await fetch(`${t.url}/status`)).json()) as { open: Array<{ scope: string; reason: string }> };
    expect(status.open).toEqual([expect.objectContaining({ scope: 'provider_model', reason: 'provider_errors' })]);
  });

  it("one seat's failures trip only that target: its sibling on the same upstream stays healthy", async () => {
    const { t, shared } = await start();
    for (let i = 0; i < 3; i++) {
      const x = await exchange(t, CHAT, chat('p1-only'));
      expect(x.decision.served_by).toBe('p3/model-x');
    }
    const tripped = await t.events.take(isBreaker('tripped', 'p1'));
    expect(tripped).toMatchObject({ scope: 'model', model: 'model-x', reason: '3 consecutive failures' });
    expect(t.events.all(onProvider('tripped'))).toEqual([]);

    shared.setDefault(respond.openaiChat());
    const sibling = await exchange(t, CHAT, chat('p2-first'));
    expect(sibling.decision.chain[0]).toMatchObject({ seat: 'p2', state: 'healthy' });
    expect(sibling.decision.served_by).toBe('p2/model-x');
  });

  it('one probe for the whole layer under 20 concurrent requests, and its success clears it', async () => {
    const { t, shared } = await start();
    await exchange(t, CHAT, chat('m'));
    await exchange(t, CHAT, chat('m'));
    await t.events.take(onProvider('tripped'));
    // probe-ready at once: the probe command on one covered target stands in for the cooldown
    expect(t.context.influence.probe('p1', 'model-x')).toEqual({ ok: true, made_ready: 1 });
    await t.events.take(onProvider('probe_ready'));

    // the upstream holds its answer until the 19 others are done: every plan is made while the probe is out
    const release = deferred<void>();
    shared.setDefault(async (req, res) => {
      await release.promise;
      respond.openaiChat()(req, res);
    });
    const before = shared.requests.length;
    const responses = Array.from({ length: 20 }, () => t.post(CHAT, chat('m')));
    const others = [];
    for (let i = 0; i < 19; i++) others.push(await t.events.take(isDecision));
    expect(others.every((d) => d.served_by === 'p3/model-x' && d.attempts.length === 1)).toBe(true);
    await shared.nextRequest();
    expect(shared.requests.length - before).toBe(1);
    expect(t.events.all(onProvider('probe_claimed'))).toHaveLength(1);
    release.resolve();

    const all = await Promise.all(responses);
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(200));
    const probe = await t.events.nextDecision();
    expect(probe.chain[0]).toMatchObject({ seat: 'p1', state: 'probe', reason: 'provider_errors' });
    expect(probe.served_by).toBe('p1/model-x');
    await t.events.take(onProvider('cleared'));
    expect(shared.requests.length - before).toBe(1);

    const healthy = await exchange(t, CHAT, chat('m'));
    expect(healthy.decision.served_by).toBe('p1/model-x');
    expect(healthy.decision.chain.map((e) => e.state)).toEqual(['healthy', 'healthy', 'healthy']);
  });
});
