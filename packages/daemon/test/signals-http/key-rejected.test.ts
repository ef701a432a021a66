import { afterEach, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { anthropic, openai } from '../signals/fixtures.js';
import { answer, ask, attemptsOf, controlSnapshot, controlStatus, stateEvents } from './support.js';

/**
 * `key_rejected` over real HTTP: the
 * daemon always sends the seat's own key, so a 401/403 says the seat's key is
 * refused — it trips the seat like `credit` (the credit cooldown, one probe,
 * and a 401/403 fails that probe), unless `trip_on_rejected_key: false`
 * restores the original rule (fail over, change nothing, no verdict on a probe).
 */

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

const influence = { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900 };

const cases = [
  {
    name: 'Anthropic 401 authentication_error',
    provider: 'anthropic',
    status: 401,
    body: anthropic.authentication,
    type: 'authentication_error',
    code: null,
  },
  {
    name: 'Anthropic 403 permission_error',
    provider: 'anthropic',
    status: 403,
    body: anthropic.permission,
    type: 'permission_error',
    code: null,
  },
  {
    name: 'OpenAI 401 invalid_api_key',
    provider: 'openai',
    status: 401,
    body: openai.invalidKey('sk-proj-****wxyz'),
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  {
    name: 'OpenAI 403 unsupported_country_region_territory',
    provider: 'openai',
    status: 403,
    body: '{"error":{"code":"unsupported_country_region_territory","message":"Country, region, or territory not supported","param":null,"type":"request_forbidden"}}',
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
  },
] as const;

describe('key_rejected: the seat is tripped like an empty account', () => {
  it.each(cases)('$name: trips the seat (reason key_rejected), fails over, the next request skips it', async (c) => {
    fx = await startTwoSeats({ provider: c.provider, influence, behaviourA: answer(c.status, c.body) });
    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d)).toEqual([
      ['a/model-a', 'http_4xx', c.status, 'key_rejected'],
      ['b/model-b', 'ok', 200, 'ok'],
    ]);
    expect(d.attempts[0]!.signal).toMatchObject({ status: c.status, type: c.type, code: c.code, header: null });

    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip).toMatchObject({ key: 'key_rejected:a', scope: 'seat_key', seat: 'a', model: null, cooldown_ms: 60_000 });
    expect(trip.signal).toEqual(d.attempts[0]!.signal);
    expect(trip.breaker).toMatchObject({ kind: 'key_rejected', scope: 'seat', phase: 'open', until: trip.breaker!.since + 60_000 });

    const snap = await controlSnapshot(fx.t);
    expect(snap.breakers).toEqual([trip.breaker]);
    // the v1 credit field shows only what it showed: a rejected key is a new kind
    expect(snap.seats.find((s) => s.id === 'a')!.credit).toBeNull();
    expect((await controlStatus(fx.t)).open).toEqual([expect.objectContaining({ scope: 'seat_key', reason: 'key_rejected' })]);

    await ask(fx.t, c.provider);
    const next = await fx.t.events.nextDecision();
    expect(next.chain.map((e) => [e.seat, e.state, e.reason])).toEqual([
      ['b', 'healthy', null],
      ['a', 'tripped', 'key_rejected'],
    ]);
    expect(fx.a.requests).toHaveLength(1);
  });

  it('a 401 answer to the probe fails it: the cooldown doubles', async () => {
    fx = await startTwoSeats({
      provider: 'anthropic',
      influence: { ...influence, cooldown_secs: 0.2 },
      behaviourA: answer(401, anthropic.authentication),
    });
    await ask(fx.t, 'anthropic');
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.take(isBreaker('probe_ready', 'a'));

    expect(await ask(fx.t, 'anthropic')).toBe('hello from model-b');
    const probe = await fx.t.events.nextDecision();
    expect(probe.chain[0]).toMatchObject({ seat: 'a', state: 'probe', reason: 'key_rejected' });
    const failed = await fx.t.events.take(isBreaker('probe_failed', 'a'));
    expect(failed).toMatchObject({ key: 'key_rejected:a', failed_probes: 1, cooldown_ms: 400, signal: { status: 401 } });
    expect(failed.until).toBe(failed.breaker!.since + 400);
  });
});

describe('trip_on_rejected_key: false — the original rule', () => {
  it.each(cases)('$name: fails over, trips nothing, the seat stays first', async (c) => {
    fx = await startTwoSeats({
      provider: c.provider,
      influence: { ...influence, trip_on_rejected_key: false },
      behaviourA: answer(c.status, c.body),
    });
    expect(await ask(fx.t, c.provider)).toBe('hello from model-b');
    const d = await fx.t.events.nextDecision();
    expect(attemptsOf(d).map(([target, , status]) => [target, status])).toEqual([
      ['a/model-a', c.status],
      ['b/model-b', 200],
    ]);
    expect(fx.t.events.all(isBreaker())).toEqual([]);
    expect((await controlSnapshot(fx.t)).breakers).toEqual([]);

    await ask(fx.t, c.provider);
    const next = await fx.t.events.nextDecision();
    expect(next.chain.map((e) => [e.seat, e.state])).toEqual([
      ['a', 'healthy'],
      ['b', 'healthy'],
    ]);
    expect(fx.a.requests).toHaveLength(2);
  });

  it('a 401 answer to a credit probe gives no verdict: the claim is released, no cooldown changes', async () => {
    fx = await startTwoSeats({
      provider: 'openai',
      influence: { ...influence, cooldown_secs: 0.2, trip_on_rejected_key: false },
      behaviourA: respond.status(402),
    });
    await ask(fx.t, 'openai');
    await fx.t.events.nextDecision();
    await fx.t.events.take(isBreaker('tripped', 'a'));
    await fx.t.events.take(isBreaker('probe_ready', 'a'));
    fx.a.setDefault(answer(401, openai.invalidKey('sk-proj-****wxyz')));

    expect(await ask(fx.t, 'openai')).toBe('hello from model-b');
    const probe = await fx.t.events.nextDecision();
    expect(probe.chain[0]).toMatchObject({ seat: 'a', state: 'probe', reason: 'credit' });
    expect(attemptsOf(probe).map(([target, , status]) => [target, status])).toEqual([
      ['a/model-a', 401],
      ['b/model-b', 200],
    ]);
    expect(stateEvents(fx.t).map((e) => [e.action, e.key, e.reason])).toEqual([
      ['tripped', 'credit:a', 'http_402 fake_error'],
      ['probe_ready', 'credit:a', 'cooldown elapsed'],
      ['probe_claimed', 'credit:a', expect.any(String)],
      ['probe_ready', 'credit:a', 'probe gave no verdict'],
    ]);
    const [breaker] = (await controlSnapshot(fx.t)).breakers;
    expect(breaker).toMatchObject({ key: 'credit:a', phase: 'probe_ready', failed_probes: 0, cooldown_ms: 200 });
  });
});
