import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBreaker } from '../helpers/events.js';
import { type Behaviour, type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon, type TestRoute } from '../helpers/test-daemon.js';
import { CHAT, chat, exchange } from './support.js';

/**
 * Retries within a target over real HTTP. Waits are checked from below only (when the upstream saw the
 * retry arrive): a busy machine can make a wait longer, never shorter.
 */

/** Arrival times (performance.now) of the requests an upstream received. */
function arrivals(up: FakeUpstream): number[] {
  return (up as FakeUpstream & { arrivedAt: number[] }).arrivedAt;
}

async function timedUpstream(fallback: Behaviour): Promise<FakeUpstream> {
  const arrivedAt: number[] = [];
  const up = await startFakeUpstream();
  up.setDefault(fallback);
  const enqueue = up.enqueue.bind(up);
  const stamp =
    (b: Behaviour): Behaviour =>
    (req, res) => {
      arrivedAt.push(performance.now());
      return b(req, res);
    };
  up.setDefault(stamp(fallback));
  up.enqueue = (...bs) => enqueue(...bs.map(stamp));
  return Object.assign(up, { arrivedAt });
}

/** The gaps between consecutive arrivals since index `from`. */
function gaps(up: FakeUpstream, from: number): number[] {
  const at = arrivals(up).slice(from);
  return at.slice(1).map((t, i) => t - at[i]!);
}

/** Waits are timer-driven; a timer may fire up to a millisecond early against performance.now(). */
const TIMER_SLACK_MS = 2;

const attemptsOf = (d: { attempts: Array<{ seat: string; retry: number; status: number | null; outcome: string }> }) =>
  d.attempts.map((a) => `${a.seat}#${a.retry} ${a.status ?? a.outcome}`);

describe('retries (influence off)', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  let t: TestDaemon;
  const route = (model: string, retry: TestRoute['retry']): TestRoute => ({
    model,
    retry,
    chain: [
      { seat: 'a', model: 'm-a' },
      { seat: 'b', model: 'm-b' },
    ],
  });

  beforeAll(async () => {
    a = await timedUpstream(respond.openaiChat());
    b = await timedUpstream(respond.openaiChat());
    t = await startTestDaemon({
      seats: [
        { id: 'a', provider: 'openai', upstream: a },
        { id: 'b', provider: 'openai', upstream: b },
      ],
      routes: [
        route('three', { max_attempts: 3, retry_on: ['429', '5xx', 'timeout'], backoff_ms: 50, jitter: false }),
        route('only-5xx', { max_attempts: 3, retry_on: ['5xx'], backoff_ms: 50 }),
        route('only-timeout', { max_attempts: 2, retry_on: ['timeout'], backoff_ms: 50 }),
        route('doubling', { max_attempts: 3, retry_on: ['5xx'], backoff_ms: 60, jitter: false }),
        route('jittered', { max_attempts: 2, retry_on: ['429'], backoff_ms: 50, jitter: true }),
        route('none', null),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a target is retried up to max_attempts, each retry an attempt with retry: n, then the next target', async () => {
    a.enqueue(respond.status(500), respond.status(502), respond.status(503));
    const x = await exchange(t, CHAT, chat('three'));
    expect(x.res.status).toBe(200);
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'a#1 502', 'a#2 503', 'b#0 200']);
    expect(x.res.headers.get('x-routeplane-attempts')).toBe('4');
  });

  it('a retry that succeeds serves the agent', async () => {
    a.enqueue(respond.status(500));
    const x = await exchange(t, CHAT, chat('three'));
    expect(x.decision.served_by).toBe('a/m-a');
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'a#1 200']);
    expect(x.res.headers.get('x-routeplane-attempts')).toBe('2');
  });

  it('retry_on names what is retried: 429, 5xx, timeout (refused and reset connections included)', async () => {
    a.enqueue(respond.rateLimited('0'));
    expect(attemptsOf((await exchange(t, CHAT, chat('only-5xx'))).decision)).toEqual(['a#0 429', 'b#0 200']);
    a.enqueue(respond.resetBeforeHeaders());
    expect(attemptsOf((await exchange(t, CHAT, chat('only-5xx'))).decision)).toEqual(['a#0 network', 'b#0 200']);
    a.enqueue(respond.resetBeforeHeaders());
    expect(attemptsOf((await exchange(t, CHAT, chat('only-timeout'))).decision)).toEqual(['a#0 network', 'a#1 200']);
    a.enqueue(respond.status(500));
    expect(attemptsOf((await exchange(t, CHAT, chat('only-timeout'))).decision)).toEqual(['a#0 500', 'b#0 200']);
    a.enqueue(respond.rateLimited('0'));
    expect(attemptsOf((await exchange(t, CHAT, chat('three'))).decision)).toEqual(['a#0 429', 'a#1 200']);
  });

  it('an answer that is the request’s own fault is never retried', async () => {
    a.enqueue(respond.status(404));
    const x = await exchange(t, CHAT, chat('three'));
    expect(x.res.status).toBe(404);
    expect(attemptsOf(x.decision)).toEqual(['a#0 404']);
  });

  it('without a retry key a target gets one attempt', async () => {
    a.enqueue(respond.status(500));
    expect(attemptsOf((await exchange(t, CHAT, chat('none'))).decision)).toEqual(['a#0 500', 'b#0 200']);
  });

  it('the backoff doubles: backoff_ms before the first retry, twice that before the second', async () => {
    const from = arrivals(a).length;
    a.enqueue(respond.status(500), respond.status(500));
    const x = await exchange(t, CHAT, chat('doubling'));
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'a#1 500', 'a#2 200']);
    const [first, second] = gaps(a, from);
    expect(first).toBeGreaterThanOrEqual(60 - TIMER_SLACK_MS);
    expect(second).toBeGreaterThanOrEqual(120 - TIMER_SLACK_MS);
  });

  it('a Retry-After longer than the backoff extends the wait; jitter never cuts it', async () => {
    let from = arrivals(a).length;
    a.enqueue(respond.status(429, { 'retry-after': '0.2' }));
    expect(attemptsOf((await exchange(t, CHAT, chat('three'))).decision)).toEqual(['a#0 429', 'a#1 200']);
    expect(gaps(a, from)[0]).toBeGreaterThanOrEqual(200 - TIMER_SLACK_MS);

    from = arrivals(a).length;
    a.enqueue(respond.status(429, { 'retry-after-ms': '150' }));
    expect(attemptsOf((await exchange(t, CHAT, chat('jittered'))).decision)).toEqual(['a#0 429', 'a#1 200']);
    expect(gaps(a, from)[0]).toBeGreaterThanOrEqual(150 - TIMER_SLACK_MS);
  });

  it('a Retry-After shorter than the backoff never shortens it', async () => {
    const from = arrivals(a).length;
    a.enqueue(respond.status(503, { 'retry-after-ms': '1' }));
    expect(attemptsOf((await exchange(t, CHAT, chat('doubling'))).decision)).toEqual(['a#0 503', 'a#1 200']);
    expect(gaps(a, from)[0]).toBeGreaterThanOrEqual(60 - TIMER_SLACK_MS);
  });

  it('a Retry-After above 10 s is not waited for: the request moves on to the next target', async () => {
    a.enqueue(respond.rateLimited('11'));
    const x = await exchange(t, CHAT, chat('three'));
    expect(attemptsOf(x.decision)).toEqual(['a#0 429', 'b#0 200']);
  });

  it('never once a byte reached the agent', async () => {
    const before = a.requests.length;
    a.enqueue(respond.resetMidBody('data: {"choices":[]}\n\n'));
    const res = await t.post(CHAT, chat('three', { stream: true }));
    await res.text().catch(() => null);
    const d = await t.events.nextDecision();
    expect(attemptsOf(d)).toEqual(['a#0 200']);
    expect(d.attempts[0]?.outcome).toBe('stream_error');
    expect(a.requests.length - before).toBe(1);
    expect(b.requests.filter((r) => r.json?.stream === true)).toHaveLength(0);
  });
});

describe('retries and the breaker', () => {
  let a: FakeUpstream;
  let b: FakeUpstream;
  let credit: FakeUpstream;
  let limited: FakeUpstream;
  let t: TestDaemon;
  const retry = { max_attempts: 3, retry_on: ['429', '5xx', 'timeout'] as const, backoff_ms: 50, jitter: false };

  beforeAll(async () => {
    a = await startFakeUpstream(respond.openaiChat());
    b = await startFakeUpstream(respond.openaiChat());
    credit = await startFakeUpstream(respond.status(402));
    limited = await startFakeUpstream(respond.openaiChat());
    t = await startTestDaemon({
      seats: [
        { id: 'a', provider: 'openai', upstream: a },
        { id: 'b', provider: 'openai', upstream: b },
        { id: 'credit', provider: 'openai', upstream: credit },
        { id: 'limited', provider: 'openai', upstream: limited },
      ],
      routes: [
        {
          model: 'errors',
          retry: { ...retry, retry_on: [...retry.retry_on] },
          chain: [
            { seat: 'a', model: 'm-a' },
            { seat: 'b', model: 'm-b' },
          ],
        },
        {
          model: 'credit',
          retry: { ...retry, retry_on: [...retry.retry_on] },
          chain: [
            { seat: 'credit', model: 'm-c' },
            { seat: 'b', model: 'm-b' },
          ],
        },
        {
          model: 'limited',
          retry: { ...retry, retry_on: [...retry.retry_on] },
          chain: [
            { seat: 'limited', model: 'm-l' },
            { seat: 'b', model: 'm-b' },
          ],
        },
      ],
      influence: { enabled: true, trip_threshold: 1, cooldown_secs: 60 },
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([a?.close(), b?.close(), credit?.close(), limited?.close()]);
  });

  it('a target the failed answer just tripped is not retried', async () => {
    a.enqueue(respond.status(500));
    const x = await exchange(t, CHAT, chat('errors'));
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'b#0 200']);
    await t.events.take(isBreaker('tripped', 'a'));
  });

  it('a probe is never retried', async () => {
    // probe-ready at once: the probe command stands in for the cooldown
    t.context.influence.probe('a');
    await t.events.take(isBreaker('probe_ready', 'a'));
    a.enqueue(respond.status(500));
    const x = await exchange(t, CHAT, chat('errors'));
    expect(x.decision.chain[0]).toMatchObject({ seat: 'a', state: 'probe' });
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'b#0 200']);
    await t.events.take(isBreaker('probe_failed', 'a'));
  });

  it('a 402 trips its seat at once and is never retried', async () => {
    const x = await exchange(t, CHAT, chat('credit'));
    expect(attemptsOf(x.decision)).toEqual(['credit#0 402', 'b#0 200']);
    expect(credit.requests).toHaveLength(1);
  });

  it('a 429 deadline is no reason to stop: the retry waits past it and serves', async () => {
    limited.enqueue(respond.status(429, { 'retry-after-ms': '100' }));
    const x = await exchange(t, CHAT, chat('limited'));
    expect(attemptsOf(x.decision)).toEqual(['limited#0 429', 'limited#1 200']);
    expect(x.decision.served_by).toBe('limited/m-l');
  });

  it('a pinned target held by an older errors breaker is retried: the 500 tripped nothing new', async () => {
    t.context.influence.reset();
    a.enqueue(respond.status(500));
    await exchange(t, CHAT, chat('errors'));
    await t.events.take(isBreaker('tripped', 'a'));

    a.enqueue(respond.status(500));
    const x = await exchange(t, CHAT, chat('errors'), { 'x-routeplane-pin': 'a' });
    expect(x.decision.chain[0]).toMatchObject({ seat: 'a', pinned: true });
    expect(attemptsOf(x.decision)).toEqual(['a#0 500', 'a#1 200']);
    expect(x.decision.served_by).toBe('a/m-a');
    await t.events.take(isBreaker('cleared', 'a'));
  });

  it('a pinned seat whose credit breaker stands is still never retried on a 402', async () => {
    t.context.influence.reset();
    await exchange(t, CHAT, chat('credit'));
    await t.events.take(isBreaker('tripped', 'credit'));
    const before = credit.requests.length;
    const x = await exchange(t, CHAT, chat('credit'), { 'x-routeplane-pin': 'credit' });
    expect(attemptsOf(x.decision)).toEqual(['credit#0 402', 'b#0 200']);
    expect(credit.requests.length - before).toBe(1);
  });
});
