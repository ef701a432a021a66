import { afterEach, describe, expect, it } from 'vitest';
import { LineClient, type Line } from '../control/line-client.js';
import { message, startDaemonWithUpstreams, tripAll, type TrippedDaemon } from '../control/tripped-daemon.js';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon, type TestRoute } from '../helpers/test-daemon.js';

/**
 * Protocol v2 against a real daemon (startDaemon on
 * port 0) through a raw unix-socket client: the `probe` command's answers,
 * `seq` from 0/1, the order of events around a snapshot taken on a
 * subscribed connection, and the chain entries' `index` and `weight`.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function connect(socketPath: string): Promise<LineClient> {
  const client = await LineClient.connect(socketPath);
  cleanups.push(() => client.close());
  return client;
}

async function tripped(influenceEnabled = true): Promise<TrippedDaemon> {
  const d = await startDaemonWithUpstreams(influenceEnabled);
  cleanups.push(() => d.close());
  return d;
}

/** Seats a, b and c; `a` and the others answer as given (by default nothing is ever sent upstream). */
async function daemon(
  routes: TestRoute[],
  upstreams: { a: FakeUpstream | string; others: FakeUpstream | string } = NO_UPSTREAM,
): Promise<TestDaemon> {
  const t = await startTestDaemon({
    seats: [
      { id: 'a', provider: 'anthropic', upstream: upstreams.a },
      { id: 'b', provider: 'anthropic', upstream: upstreams.others },
      { id: 'c', provider: 'anthropic', upstream: upstreams.others },
    ],
    routes,
    influence: { enabled: true, cooldown_secs: 600, max_cooldown_secs: 900, trip_threshold: 1, window_secs: 300 },
    decisionLog: false,
  });
  cleanups.push(() => t.close());
  return t;
}

const NO_UPSTREAM = { a: 'http://127.0.0.1:9', others: 'http://127.0.0.1:9' };

const ONE_ROUTE: TestRoute[] = [{ model: 'sonnet', chain: [{ seat: 'a', model: 'sonnet-x' }] }];

/** A decision without any upstream: a model no route has (404). */
async function unknownModel(t: TestDaemon, i: number): Promise<void> {
  const res = await t.post('/v1/messages', { model: `no-such-${i}`, max_tokens: 1, messages: [] });
  await res.arrayBuffer();
}

describe('probe', () => {
  it('answers made_ready for a seat and a target, counting only open breakers it names', async () => {
    const d = await tripped();
    await tripAll(d.t);
    const client = await connect(d.t.daemon.socketPath);
    await client.request('subscribe');

    // max-a: out of credit (open) → probe-ready now, with a probe_ready event "probe now"
    expect(await client.request('probe', { seat: 'max-a' })).toMatchObject({ ok: true, result: { made_ready: 1 } });
    const ready = await client.waitFor((l) => l.event?.type === 'breaker' && l.event.action === 'probe_ready', 'probe_ready');
    expect(ready.event).toMatchObject({ seat: 'max-a', reason: 'probe now', key: 'credit:max-a', breaker: { phase: 'probe_ready' } });
    // already probe-ready: not counted again
    expect(await client.request('probe', { seat: 'max-a' })).toMatchObject({ ok: true, result: { made_ready: 0 } });
    // a rate limit needs no probe: nothing to make ready
    expect(await client.request('probe', { seat: 'rl' })).toMatchObject({ ok: true, result: { made_ready: 0 } });
    // one target: its model breaker
    expect(await client.request('probe', { seat: 'team', model: 'haiku-x' })).toMatchObject({ ok: true, result: { made_ready: 1 } });
    // a healthy target on the same seat names nothing
    expect(await client.request('probe', { seat: 'team', model: 'sonnet-x' })).toMatchObject({ ok: true, result: { made_ready: 0 } });
  });

  it('answers unknown_seat and unknown_target', async () => {
    const d = await tripped();
    const client = await connect(d.t.daemon.socketPath);
    const seat = await client.request('probe', { seat: 'nope' });
    expect(seat).toMatchObject({ ok: false, error: { code: 'unknown_seat' } });
    expect(seat.error.message).toContain('nope');
    const target = await client.request('probe', { seat: 'team', model: 'nope-model' });
    expect(target).toMatchObject({ ok: false, error: { code: 'unknown_target' } });
    expect(target.error.message).toContain('team/nope-model');
  });

  it('answers influence_disabled when influence is off', async () => {
    const d = await tripped(false);
    const client = await connect(d.t.daemon.socketPath);
    expect(await client.request('probe', { seat: 'max-a' })).toMatchObject({ ok: false, error: { code: 'influence_disabled' } });
  });
});

describe('seq', () => {
  it('a snapshot before any event has seq 0, and the first event has seq 1', async () => {
    const t = await daemon(ONE_ROUTE);
    const client = await connect(t.daemon.socketPath);
    const [, snapshot] = await Promise.all([client.request('subscribe'), client.request('snapshot')]);
    expect(snapshot.result.seq).toBe(0);
    await unknownModel(t, 0);
    const first = await client.waitFor((l) => 'event' in l, 'the first event');
    expect(first.event).toMatchObject({ type: 'decision', seq: 1 });
    expect((await client.request('snapshot')).result.seq).toBe(1);
  });

  it('subscribe then snapshot on one connection: every event after the snapshot seq arrives after its reply, none missing', async () => {
    const t = await daemon(ONE_ROUTE);
    const decisions = () => t.events.events.filter((e) => e.type === 'decision').length;
    let replied = false;
    let total = 0;
    // traffic before, while and after the two requests are answered: it stops 10 decisions after the snapshot reply
    const traffic = (async () => {
      for (let after = 0; after < 10; total++) {
        await unknownModel(t, total);
        if (replied) after++;
      }
    })();
    await expect.poll(decisions).toBeGreaterThanOrEqual(10);
    const client = await connect(t.daemon.socketPath);
    client.write(`${JSON.stringify({ id: 'sub', cmd: 'subscribe' })}\n${JSON.stringify({ id: 'snap', cmd: 'snapshot' })}\n`);
    await client.waitFor((l) => l.id === 'snap', 'the snapshot reply');
    replied = true;
    await traffic;
    await expect.poll(decisions).toBe(total);
    await client.waitFor((l) => l.event?.seq === total, `event seq ${total}`);

    const lines: Line[] = client.lines;
    const replyAt = lines.findIndex((l) => l.id === 'snap');
    expect(replyAt).toBeGreaterThan(-1);
    const snapSeq: number = lines[replyAt].result.seq;
    // the snapshot was taken while traffic ran: events before it, and after it (of the 10 requests
    // answered after its reply, one may have been decided before it)
    expect(snapSeq).toBeGreaterThanOrEqual(10);
    expect(snapSeq).toBeLessThanOrEqual(total - 9);
    const arrival = lines.map((l, at) => ({ at, seq: l.event?.seq as number | undefined })).filter((e) => e.seq !== undefined);
    const later = arrival.filter((e) => e.seq! > snapSeq);
    for (const e of later) expect(e.at, `event seq ${e.seq}`).toBeGreaterThan(replyAt);
    // and every one of them, in order, with no gap
    expect(later.map((e) => e.seq)).toEqual(Array.from({ length: total - snapSeq }, (_, i) => snapSeq + 1 + i));
  });
});

describe('chain entries: index and weight', () => {
  it('index is the configured position and weight the configured one (1 when not set), whatever the order now', async () => {
    const credit = await startFakeUpstream(respond.status(402));
    const ok = await startFakeUpstream(respond.anthropicMessage());
    cleanups.push(
      () => credit.close(),
      () => ok.close(),
    );
    const routes: TestRoute[] = [
      {
        model: 'sonnet',
        chain: [
          { seat: 'a', model: 'sonnet-x' },
          { seat: 'b', model: 'sonnet-x', weight: 3 },
          { seat: 'c', model: 'sonnet-x', weight: 0 },
        ],
      },
      {
        model: 'haiku',
        balance: 'spread',
        chain: [
          { seat: 'c', model: 'haiku-x', weight: 0.5 },
          { seat: 'a', model: 'haiku-x' },
        ],
      },
    ];
    const t = await daemon(routes, { a: credit, others: ok });
    // seat a runs out of credit: its targets move behind the others, so order ≠ configured order
    const res = await t.post('/v1/messages', message('sonnet'));
    await res.arrayBuffer();
    await t.events.nextDecision();
    const client = await connect(t.daemon.socketPath);
    const { result: snapshot } = await client.request('snapshot');

    const sonnet = snapshot.routes.find((r: { model: string }) => r.model === 'sonnet');
    expect(sonnet.chain.map((e: { seat: string }) => e.seat)).not.toEqual(['a', 'b', 'c']);
    for (const route of routes) {
      const shown = snapshot.routes.find((r: { model: string }) => r.model === route.model);
      expect(shown.chain).toHaveLength(route.chain.length);
      for (const entry of shown.chain) {
        const configured = route.chain[entry.index];
        expect(configured, `${route.model} index ${entry.index}`).toBeDefined();
        expect({ seat: entry.seat, model: entry.model, weight: entry.weight }).toEqual({
          seat: configured!.seat,
          model: configured!.model,
          weight: configured!.weight ?? 1,
        });
      }
      expect(shown.chain.map((e: { index: number }) => e.index).sort()).toEqual(route.chain.map((_, i) => i));
    }
  });
});
