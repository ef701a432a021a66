import { describe, expect, it, type TestContext } from 'vitest';
import { closedPortUrl } from '../helpers/closed-port.js';
import { isBreaker } from '../helpers/events.js';
import { ControlledStream, respond } from '../helpers/fake-upstream.js';
import type { TestDaemon } from '../helpers/test-daemon.js';
import { CHAT, chatBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { readJson } from '../helpers/read-stream.js';
import { FAST_TIMEOUTS } from '../helpers/test-timing.js';

/** Fail-over table, one test per row, influence enabled. */

const influence = { enabled: true, cooldown_secs: 60, trip_threshold: 3 };

/** Two seats for one test, closed when that test ends (the rows run side by side). */
async function twoSeats(test: TestContext, opts: Parameters<typeof startTwoSeats>[0]): Promise<TwoSeats> {
  const fx = await startTwoSeats(opts);
  test.onTestFinished(() => fx.close());
  return fx;
}

function streak(t: TestDaemon, seat: string, model: string): number {
  return (
    t.context.influence
      .seats()
      .find((s) => s.id === seat)
      ?.models.find((m) => m.model === model)?.streak ?? 0
  );
}

function seatState(t: TestDaemon, seat: string) {
  const s = t.context.influence.seats().find((x) => x.id === seat);
  if (!s) throw new Error(`no seat ${seat}`);
  return s;
}

// Each row has its own daemon and upstreams; the timeouts among them are waited out side by side.
describe.concurrent('fail-over table', () => {
  it('2xx: success answers the agent from the first target', async (test) => {
    const fx = await twoSeats(test, { influence });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect((await readJson(res)).model).toBe('model-a');
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(res.headers.get('x-routeplane-attempts')).toBe('1');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts).toEqual([
      { seat: 'a', model: 'model-a', outcome: 'ok', status: 200, ms: expect.any(Number), evidence: 'ok', signal: null, retry: 0 },
    ]);
    expect(d).toMatchObject({ served_by: 'a/model-a', status: 200, route: 'gpt', family: 'openai', fail_open: false });
    expect(fx.a.requests[0]!.json.model).toBe('model-a');
    expect(fx.b.requests).toHaveLength(0);
    expect(fx.t.context.counters).toMatchObject({ requests: 1, failovers: 0 });
  });

  it('402: the seat is tripped for credit and the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.status(402) });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(res.headers.get('x-routeplane-attempts')).toBe('2');
    expect((await readJson(res)).model).toBe('model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'http_402', 402],
      ['b', 'ok', 200],
    ]);
    const trip = await fx.t.events.take(isBreaker('tripped', 'a'));
    expect(trip.scope).toBe('seat_credit');
    expect(seatState(fx.t, 'a').credit).not.toBeNull();
    expect(fx.t.context.counters.failovers).toBe(1);
  });

  it('429: the seat is rate-limited until Retry-After and the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.rateLimited('7') });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'http_429', 429],
      ['b', 'ok', 200],
    ]);
    const limit = seatState(fx.t, 'a').rate_limit;
    expect(limit).not.toBeNull();
    // the 7 s of Retry-After, measured from when the 429 was recorded
    expect(limit!.until - limit!.since).toBe(7_000);
    expect(seatState(fx.t, 'a').credit).toBeNull();
  });

  it('5xx: a model failure is counted and the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.status(503) });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'http_5xx', 503],
      ['b', 'ok', 200],
    ]);
    expect(streak(fx.t, 'a', 'model-a')).toBe(1);
    expect(seatState(fx.t, 'a').credit).toBeNull();
  });

  it('timeout (no response headers within first_byte_ms): a model failure, the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.hang(), timeouts: FAST_TIMEOUTS });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'timeout', null],
      ['b', 'ok', 200],
    ]);
    expect(streak(fx.t, 'a', 'model-a')).toBe(1);
    // the timed-out connection is destroyed at once
    await fx.a.requests[0]!.closed;
  });

  it('connection refused: a model failure, the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, aBaseUrl: await closedPortUrl() });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'network', null],
      ['b', 'ok', 200],
    ]);
    expect(streak(fx.t, 'a', 'model-a')).toBe(1);
  });

  it('connection reset before the response: a model failure, the next target serves', async (test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.resetBeforeHeaders() });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome])).toEqual([
      ['a', 'network'],
      ['b', 'ok'],
    ]);
    expect(streak(fx.t, 'a', 'model-a')).toBe(1);
  });

  it('a 200 whose body breaks before any byte reached the agent still fails over', async (test) => {
    const stream = new ControlledStream();
    const fx = await twoSeats(test, { influence, behaviourA: stream.behaviour });
    const pending = fx.t.post(CHAT, chatBody({ stream: true }));
    await stream.started;
    stream.reset();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
      ['a', 'network', 200],
      ['b', 'ok', 200],
    ]);
  });

  it.for([401, 403])("%i: the seat's key is refused — key_rejected trips the seat, the next target serves", async (status, test) => {
    const fx = await twoSeats(test, { influence, behaviourA: respond.status(status) });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(200);
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status, a.evidence])).toEqual([
      ['a', 'http_4xx', status, 'key_rejected'],
      ['b', 'ok', 200, 'ok'],
    ]);
    expect(fx.t.events.all(isBreaker()).map((e) => [e.action, e.key])).toEqual([['tripped', 'key_rejected:a']]);
  });

  it.for([401, 403])(
    '%i with trip_on_rejected_key: false: no evidence (the original rule), the next target serves',
    async (status, test) => {
      const fx = await twoSeats(test, { influence: { ...influence, trip_on_rejected_key: false }, behaviourA: respond.status(status) });
      const res = await fx.t.post(CHAT, chatBody());
      expect(res.status).toBe(200);
      expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
      const d = await fx.t.events.nextDecision();
      expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([
        ['a', 'http_4xx', status],
        ['b', 'ok', 200],
      ]);
      expect(fx.t.events.all(isBreaker())).toEqual([]);
      expect(seatState(fx.t, 'a')).toMatchObject({ credit: null, rate_limit: null });
      expect(streak(fx.t, 'a', 'model-a')).toBe(0);
    },
  );

  it('other 4xx: no evidence, returned to the agent unchanged, no fail-over', async (test) => {
    const raw = '{"error": {"message": "max_tokens: too large", "type": "invalid_request_error"}, "extra": "\\u00e9"}';
    const fx = await twoSeats(test, {
      influence,
      behaviourA: (_req, res) => {
        res.writeHead(422, { 'content-type': 'application/json', 'x-upstream-request-id': 'up-1' });
        res.end(raw);
      },
    });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(422);
    expect(await res.text()).toBe(raw);
    expect(res.headers.get('x-upstream-request-id')).toBe('up-1');
    expect(res.headers.get('x-routeplane-target')).toBe('a/model-a');
    expect(res.headers.get('x-routeplane-attempts')).toBe('1');
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'http_4xx', 422]]);
    expect(d).toMatchObject({ status: 422, served_by: 'a/model-a' });
    expect(fx.b.requests).toHaveLength(0);
    expect(fx.t.events.all(isBreaker())).toEqual([]);
  });

  it('failure after the first byte reached the agent: model failure, stream ended with an error event, no fail-over', async (test) => {
    const stream = new ControlledStream();
    const fx = await twoSeats(test, { influence, behaviourA: stream.behaviour });
    const pending = fx.t.post(CHAT, chatBody({ stream: true }));
    await stream.started;
    // the status line goes out with the first body chunk, so write it before awaiting the response
    stream.write('data: {"choices":[{"delta":{"content":"he"}}]}\n\n');
    const res = await pending;
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"he"');
    stream.reset();
    let rest = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toMatch(/^data: \{"error":\{"message":"[^"]*a\/model-a[^"]*","type":"upstream_error","code":"stream_error"\}\}\n\n$/);
    const d = await fx.t.events.nextDecision();
    expect(d.attempts.map((a) => [a.seat, a.outcome, a.status])).toEqual([['a', 'stream_error', 200]]);
    expect(d).toMatchObject({ status: 200, served_by: 'a/model-a' });
    expect(streak(fx.t, 'a', 'model-a')).toBe(1);
    expect(fx.b.requests).toHaveLength(0);
  });

  it('all targets failed: the agent gets the last upstream error as it was', async (test) => {
    const fx = await twoSeats(test, {
      influence,
      behaviourA: respond.status(402),
      behaviourB: (_req, res) => {
        res.writeHead(503, { 'content-type': 'text/plain', 'x-from': 'b' });
        res.end('b is overloaded');
      },
    });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('b is overloaded');
    expect(res.headers.get('x-from')).toBe('b');
    expect(res.headers.get('x-routeplane-target')).toBe('b/model-b');
    expect(res.headers.get('x-routeplane-attempts')).toBe('2');
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 503, served_by: 'b/model-b' });
    expect(d.attempts.map((a) => a.outcome)).toEqual(['http_402', 'http_5xx']);
  });

  it('all targets failed with no response, last a network error: 502 naming each target and outcome', async (test) => {
    const fx = await twoSeats(test, {
      influence,
      behaviourA: respond.hang(),
      behaviourB: respond.resetBeforeHeaders(),
      timeouts: FAST_TIMEOUTS,
    });
    const res = await fx.t.post(CHAT, chatBody());
    expect(res.status).toBe(502);
    expect(res.headers.get('x-routeplane-target')).toBeNull();
    expect(res.headers.get('x-routeplane-attempts')).toBe('2');
    const body = await readJson(res);
    expect(body.error).toMatchObject({ type: 'upstream_error', code: 'bad_gateway' });
    expect(body.error.message).toContain('a/model-a (timeout)');
    expect(body.error.message).toContain('b/model-b (network)');
    const d = await fx.t.events.nextDecision();
    expect(d).toMatchObject({ status: 502, served_by: null });
  });

  it('all targets failed with no response, last a timeout: 504 (Anthropic shape on /v1/messages)', async (test) => {
    const fx = await twoSeats(test, {
      provider: 'anthropic',
      influence,
      aBaseUrl: await closedPortUrl(),
      behaviourB: respond.hang(),
      timeouts: FAST_TIMEOUTS,
    });
    const res = await fx.t.post('/v1/messages', { model: 'claude', max_tokens: 5, messages: [] });
    expect(res.status).toBe(504);
    const body = await readJson(res);
    expect(body).toMatchObject({ type: 'error', error: { type: 'timeout_error' } });
    expect(body.error.message).toContain('a/model-a (network)');
    expect(body.error.message).toContain('b/model-b (timeout)');
    expect((await fx.t.events.nextDecision()).status).toBe(504);
  });
});
