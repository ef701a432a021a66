import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { ControlledStream, respond } from '../helpers/fake-upstream.js';
import { readUntil } from '../helpers/read-stream.js';
import { CHAT, chatBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';

/** An agent that hangs up cancels the upstream request; it says nothing about upstream health. */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

function post(fx: TwoSeats, body: unknown, signal: AbortSignal): Promise<Response> {
  return fetch(fx.t.url + CHAT, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
}

function expectNoEvidence(fx: TwoSeats): void {
  expect(fx.t.events.all(isBreaker())).toEqual([]);
  const seat = fx.t.context.influence.seats().find((s) => s.id === 'a')!;
  expect(seat.credit).toBeNull();
  expect(seat.rate_limit).toBeNull();
  expect(seat.models.every((m) => m.streak === 0 && m.breaker === null)).toBe(true);
}

describe('agent abort', () => {
  it('while waiting for upstream headers: the upstream connection closes, no evidence, decision 499', async () => {
    fx = await startTwoSeats({ influence: { enabled: true, trip_threshold: 1 }, behaviourA: respond.hang() });
    const agent = new AbortController();
    const pending = post(fx, chatBody(), agent.signal);
    const upstreamRequest = await fx.a.nextRequest();
    agent.abort();
    await expect(pending).rejects.toThrow();

    await upstreamRequest.closed;
    const d = await fx.t.events.nextDecision();
    expect(d.status).toBe(499);
    expect(d.attempts).toEqual([
      { seat: 'a', model: 'model-a', outcome: 'aborted', status: null, ms: expect.any(Number), evidence: null, signal: null, retry: 0 },
    ]);
    expect(d.served_by).toBeNull();
    expectNoEvidence(fx);
    expect(fx.b.requests).toHaveLength(0);
    expect(fx.t.context.counters.failovers).toBe(0);
  });

  it('mid-stream: the upstream connection closes, no evidence (not even success), decision 499', async () => {
    const stream = new ControlledStream();
    fx = await startTwoSeats({ influence: { enabled: true, trip_threshold: 1 }, behaviourA: stream.behaviour });
    const agent = new AbortController();
    const pending = post(fx, chatBody({ stream: true }), agent.signal);
    await stream.started;
    stream.write('data: {"n":1}\n\n');
    const res = await pending;
    await readUntil(res.body!.getReader(), '"n":1');
    agent.abort();

    await fx.a.requests[0]!.closed;
    const d = await fx.t.events.nextDecision();
    expect(d.status).toBe(499);
    expect(d.attempts.map((a) => [a.outcome, a.status])).toEqual([['aborted', 200]]);
    expectNoEvidence(fx);
  });

  it('during a probe: the claim is released, so the next request can probe', async () => {
    fx = await startTwoSeats({ influence: { enabled: true, cooldown_secs: 1 }, behaviourA: respond.status(402) });
    await fx.t.post(CHAT, chatBody());
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    await fx.t.events.nextDecision(); // the request that tripped a
    await fx.a.nextRequest(); // ...and its 402

    // the probe request tries a at its configured position (first), and a hangs
    fx.a.setDefault(respond.hang());
    const agent = new AbortController();
    const pending = post(fx, chatBody(), agent.signal);
    const hung = await fx.a.nextRequest();
    expect(fx.t.context.influence.seats().find((s) => s.id === 'a')!.credit!.claimed_at).not.toBeNull();
    agent.abort();
    await expect(pending).rejects.toThrow();
    await hung.closed;
    const d = await fx.t.events.nextDecision();
    expect(d.status).toBe(499);
    expect(d.chain.map((c) => [c.seat, c.state])).toEqual([
      ['a', 'probe'],
      ['b', 'healthy'],
    ]);
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([['a', 'aborted']]);
    expect(fx.t.context.influence.seats().find((s) => s.id === 'a')!.credit!.claimed_at).toBeNull();

    fx.a.setDefault(respond.openaiChat());
    const next = await fx.t.post(CHAT, chatBody());
    expect(next.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect((await fx.t.events.nextDecision()).chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    await fx.t.events.take(isBreaker('cleared', 'a'));
  });
});
