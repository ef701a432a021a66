/**
 * `/metrics` counter values: probes by result (`ok`,
 * `failed`, `released`), fail-open and skipped background requests by route,
 * and the `code` classes of requests (`2xx`, `4xx`, `5xx`, `499`) — each
 * made to happen once over real HTTP and read back by a Prometheus parser.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBreaker, isDecision } from '../helpers/events.js';
import { respond } from '../helpers/fake-upstream.js';
import { CHAT, chatBody, startTwoSeats, type TwoSeats } from '../helpers/two-seats.js';
import { scrape } from './scrape.js';

let fx: TwoSeats | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

async function twoSeats(): Promise<TwoSeats> {
  fx = await startTwoSeats({ influence: { enabled: true, cooldown_secs: 60, max_cooldown_secs: 900 } });
  return fx;
}

async function ask(f: TwoSeats, headers: Record<string, string> = {}): Promise<Response> {
  const res = await f.t.post(CHAT, chatBody(), headers);
  await res.arrayBuffer();
  return res;
}

describe('routeplane_probes_total', () => {
  it('counts each probe once, by its result: failed, ok, released', async () => {
    const f = await twoSeats();
    const { influence } = f.t.context;
    f.a.enqueue(respond.status(402));
    await ask(f);
    await f.t.events.take(isBreaker('tripped', 'a'));

    // a probe that fails
    expect(influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    f.a.enqueue(respond.status(402));
    await ask(f);
    await f.t.events.take(isBreaker('probe_failed', 'a'));
    // a probe that succeeds
    expect(influence.probe('a')).toEqual({ ok: true, made_ready: 1 });
    await ask(f);
    await f.t.events.take(isBreaker('cleared', 'a'));
    // a probe of the second seat whose request the first one served: given back
    f.a.enqueue(respond.status(500));
    f.b.enqueue(respond.status(402));
    await ask(f);
    await f.t.events.take(isBreaker('tripped', 'b'));
    expect(influence.probe('b')).toEqual({ ok: true, made_ready: 1 });
    await ask(f);
    await vi.waitFor(() => expect(influence.breakers().find((b) => b.key === 'credit:b')?.phase).toBe('probe_ready'));

    const m = await scrape(f.t);
    expect(m.value('routeplane_probes_total', { seat: 'a', model: '', result: 'failed' })).toBe(1);
    expect(m.value('routeplane_probes_total', { seat: 'a', model: '', result: 'ok' })).toBe(1);
    expect(m.value('routeplane_probes_total', { seat: 'b', model: '', result: 'released' })).toBe(1);
    expect(m.sum('routeplane_probes_total')).toBe(3);
  });
});

describe('fail-open and skipped background requests', () => {
  it('with every target tripped: a foreground request fails open, a background one is skipped — each counted by route', async () => {
    const f = await twoSeats();
    f.a.enqueue(respond.status(402));
    f.b.enqueue(respond.status(402));
    expect((await ask(f)).status).toBe(402);
    await vi.waitFor(() =>
      expect(
        f.t.context.influence
          .breakers()
          .map((b) => b.key)
          .sort(),
      ).toEqual(['credit:a', 'credit:b']),
    );

    const background = await ask(f, { 'x-routeplane-lane': 'background' });
    expect(background.status).toBe(503);
    // (the fail-open success clears seat a: asked last)
    expect((await ask(f)).status).toBe(200);

    const m = await scrape(f.t);
    expect(m.value('routeplane_fail_open_total', { route: 'gpt' })).toBe(1);
    expect(m.value('routeplane_background_skipped_total', { route: 'gpt' })).toBe(1);
    expect(m.value('routeplane_requests_total', { route: 'gpt', lane: 'background', code: '5xx' })).toBe(1);
  });
});

describe('routeplane_requests_total code classes', () => {
  it('2xx served, 4xx passed back, 5xx when every target failed, 499 when the agent hung up', async () => {
    const f = await twoSeats();
    expect((await ask(f)).status).toBe(200);
    // a 400 is the request's fault: passed back as it is
    f.a.enqueue(respond.status(400));
    expect((await ask(f)).status).toBe(400);
    f.a.enqueue(respond.status(500));
    f.b.enqueue(respond.status(500));
    expect((await ask(f)).status).toBe(500);
    // the agent goes away while seat a has not answered
    f.a.enqueue(respond.hang());
    const agent = new AbortController();
    const pending = fetch(`${f.t.url}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatBody()),
      signal: agent.signal,
    }).catch(() => null);
    await vi.waitFor(() => expect(f.a.requests.length).toBe(4));
    agent.abort();
    await pending;
    await vi.waitFor(() => expect(f.t.events.all(isDecision).some((d) => d.status === 499)).toBe(true), { timeout: 10_000 });

    const m = await scrape(f.t);
    const code = (c: string) => m.sum('routeplane_requests_total', { route: 'gpt', family: 'openai', lane: 'foreground', code: c });
    expect(code('2xx')).toBe(1);
    expect(code('4xx')).toBe(1);
    expect(code('5xx')).toBe(1);
    expect(code('499')).toBe(1);
  });
});
