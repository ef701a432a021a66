import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS, ROUTEPLANE_VERSION } from '@routeplane/shared';
import { LineClient } from './line-client.js';
import { startDaemonWithUpstreams, tripAll, type TrippedDaemon } from './tripped-daemon.js';

let current: TrippedDaemon | null = null;
const clients: LineClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await current?.close();
  current = null;
});

async function daemon(influenceEnabled = true): Promise<TrippedDaemon> {
  current = await startDaemonWithUpstreams(influenceEnabled);
  return current;
}

async function connect(d: TrippedDaemon): Promise<LineClient> {
  const client = await LineClient.connect(d.t.daemon.socketPath);
  clients.push(client);
  return client;
}

const openKeys = (status: { open: Array<{ scope: string; seat: string; model: string | null }> }) =>
  status.open.map((b) => `${b.scope}:${b.seat}/${b.model ?? '*'}`).sort();

describe('control protocol over the real socket', () => {
  it('hello names the daemon: version, pid, start time, http url, influence config', async () => {
    const d = await daemon();
    const client = await connect(d);
    const reply = await client.request('hello');
    expect(reply).toEqual({
      id: reply.id,
      ok: true,
      result: {
        version: ROUTEPLANE_VERSION,
        pid: process.pid,
        started_at: d.t.context.startedAt,
        http_url: d.t.url,
        influence: {
          enabled: true,
          cooldown_secs: 600,
          max_cooldown_secs: 900,
          trip_threshold: 1,
          window_secs: 300,
          max_quota_secs: 604_800,
          trip_on_rejected_key: true,
          state_file: null,
          shared: null,
        },
        protocol: 2,
        daemon_id: d.t.context.daemonId,
        store: { kind: 'memory', state: 'ok', since: d.t.context.startedAt, daemons: 1 },
        restored: 0,
        config_path: null,
      },
    });
  });

  it('snapshot shows the chains reordered, every seat breaker with absolute deadlines, and the counters', async () => {
    const d = await daemon();
    await tripAll(d.t);
    const client = await connect(d);
    const { result: snap } = await client.request('snapshot');

    expect(Object.keys(snap).sort()).toEqual(['breakers', 'counters', 'influence', 'now', 'routes', 'seats', 'seq', 'store']);
    expect(snap.influence.enabled).toBe(true);
    expect(snap.counters).toEqual({ requests: 2, failovers: expect.any(Number), fail_open: expect.any(Number) });
    expect(snap.counters.failovers).toBeGreaterThanOrEqual(2);

    const sonnet = snap.routes.find((r: { model: string }) => r.model === 'sonnet');
    // the credit-tripped seat moved behind the healthy one, and stays in the chain
    expect(sonnet.chain.map((t: { seat: string; state: string }) => `${t.seat}:${t.state}`)).toEqual(['team:healthy', 'max-a:tripped']);
    const tripped = sonnet.chain[1];
    expect(tripped.reasons).toEqual(['credit']);

    const maxA = snap.seats.find((s: { id: string }) => s.id === 'max-a');
    expect(maxA.provider).toBe('anthropic');
    expect(maxA.credit).toEqual({
      tripped_at: expect.any(Number),
      cooldown_ms: 600_000,
      probe_ready_at: maxA.credit.tripped_at + 600_000,
      failed_probes: 0,
      refused_count: expect.any(Number),
      claimed_at: null,
    });
    expect(tripped.until).toBe(maxA.credit.probe_ready_at);
    expect(maxA.credit.probe_ready_at).toBeGreaterThan(snap.now);

    const rl = snap.seats.find((s: { id: string }) => s.id === 'rl');
    expect(rl.rate_limit).toEqual({ since: expect.any(Number), until: rl.rate_limit.since + 600_000, refused_count: expect.any(Number) });
    expect(rl.credit).toBeNull();

    const team = snap.seats.find((s: { id: string }) => s.id === 'team');
    const haikuModel = team.models.find((m: { model: string }) => m.model === 'haiku-x');
    expect(haikuModel.breaker).toMatchObject({ cooldown_ms: 600_000, failed_probes: 0, claimed_at: null });
    expect(team.credit).toBeNull();
    expect(team.rate_limit).toBeNull();
  });

  it('status lists each open breaker with scope, reason, refused attempts and its deadline', async () => {
    const d = await daemon();
    await tripAll(d.t);
    const client = await connect(d);
    const { result: status } = await client.request('status');
    expect(status.now).toEqual(expect.any(Number));
    expect(openKeys(status)).toEqual(['model:team/haiku-x', 'seat_credit:max-a/*', 'seat_rate_limit:rl/*']);
    const byScope = Object.fromEntries(status.open.map((b: { scope: string }) => [b.scope, b]));
    expect(byScope.seat_credit).toMatchObject({ seat: 'max-a', model: null, reason: 'credit', refused_count: expect.any(Number) });
    expect(byScope.seat_rate_limit).toMatchObject({ seat: 'rl', model: null, reason: 'rate_limit' });
    expect(byScope.model).toMatchObject({ seat: 'team', model: 'haiku-x', reason: 'model_errors' });
    for (const b of status.open) expect(b.until).toBeGreaterThan(status.now);
  });

  it('subscribe replies first, then streams decisions and breaker events with increasing seq', async () => {
    const d = await daemon();
    const client = await connect(d);
    const reply = await client.request('subscribe');
    expect(reply).toEqual({ id: reply.id, ok: true, result: { subscribed: true } });
    await tripAll(d.t);
    await client.waitFor((l) => l.event?.type === 'decision' && l.event.route === 'haiku', 'the haiku decision');

    const events = client.events();
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const decision = events.find((e) => e.type === 'decision' && e.route === 'sonnet');
    expect(decision).toMatchObject({
      family: 'anthropic',
      stream: false,
      served_by: 'team/sonnet-x',
      status: 200,
      fail_open: false,
      attempts: [
        { seat: 'max-a', model: 'sonnet-x', outcome: 'http_402', status: 402 },
        { seat: 'team', model: 'sonnet-x', outcome: 'ok', status: 200 },
      ],
    });
    expect(typeof decision.ts).toBe('number');
    const trip = events.find((e) => e.type === 'breaker' && e.scope === 'seat_credit');
    expect(trip).toMatchObject({ action: 'tripped', seat: 'max-a', model: null, cooldown_ms: 600_000 });
    expect(trip.until).toBeGreaterThan(trip.ts);
  });

  it('reset of one target clears exactly that target and emits its reset event', async () => {
    const d = await daemon();
    await tripAll(d.t);
    const client = await connect(d);
    await client.request('subscribe');
    const reply = await client.request('reset', { seat: 'team', model: 'haiku-x' });
    expect(reply.result).toEqual({ cleared: 1 });
    const resets = client.events().filter((e) => e.type === 'breaker' && e.action === 'reset');
    expect(resets).toEqual([expect.objectContaining({ scope: 'model', seat: 'team', model: 'haiku-x' })]);
    const { result: status } = await client.request('status');
    expect(openKeys(status)).toEqual(['seat_credit:max-a/*', 'seat_rate_limit:rl/*']);
  });

  it('reset of one seat clears that seat (credit, rate limit, models) and nothing else', async () => {
    const d = await daemon();
    await tripAll(d.t);
    const client = await connect(d);
    await client.request('subscribe');
    expect((await client.request('reset', { seat: 'rl' })).result).toEqual({ cleared: 1 });
    expect((await client.request('reset', { seat: 'team' })).result).toEqual({ cleared: 1 });
    const resets = client.events().filter((e) => e.type === 'breaker' && e.action === 'reset');
    expect(resets.map((e) => `${e.scope}:${e.seat}/${e.model ?? '*'}`)).toEqual(['seat_rate_limit:rl/*', 'model:team/haiku-x']);
    const { result: status } = await client.request('status');
    expect(openKeys(status)).toEqual(['seat_credit:max-a/*']);
  });

  it('reset of everything clears every open breaker and counts them', async () => {
    const d = await daemon();
    await tripAll(d.t);
    const client = await connect(d);
    await client.request('subscribe');
    expect((await client.request('reset')).result).toEqual({ cleared: 3 });
    const resets = client.events().filter((e) => e.type === 'breaker' && e.action === 'reset');
    expect(resets).toHaveLength(3);
    expect((await client.request('status')).result.open).toEqual([]);
    // nothing left to clear
    expect((await client.request('reset')).result).toEqual({ cleared: 0 });
    const { result: snap } = await client.request('snapshot');
    expect(snap.routes.find((r: { model: string }) => r.model === 'sonnet').chain.map((t: { seat: string }) => t.seat)).toEqual([
      'max-a',
      'team',
    ]);
  });

  it('reset names an unknown seat or target as such', async () => {
    const d = await daemon();
    const client = await connect(d);
    expect(await client.request('reset', { seat: 'nope' })).toMatchObject({ ok: false, error: { code: 'unknown_seat' } });
    expect(await client.request('reset', { seat: 'team', model: 'nope' })).toMatchObject({ ok: false, error: { code: 'unknown_target' } });
  });

  it('reset with influence disabled answers influence_disabled', async () => {
    const d = await daemon(false);
    const client = await connect(d);
    const reply = await client.request('reset');
    expect(reply).toMatchObject({ ok: false, error: { code: 'influence_disabled', message: expect.any(String) } });
    // the other commands still work and report influence off
    expect((await client.request('hello')).result.influence.enabled).toBe(false);
    expect((await client.request('status')).result.open).toEqual([]);
  });
});

describe('control framing', () => {
  it('answers a malformed line with id null and keeps the connection usable', async () => {
    const d = await daemon();
    const client = await connect(d);
    client.write('this is not json\n');
    const error = await client.waitFor((l) => l.id === null, 'the error reply');
    expect(error).toEqual({ id: null, ok: false, error: { code: 'bad_request', message: expect.stringContaining('malformed JSON') } });
    client.write('{"id":7,"cmd":"launch"}\n');
    expect(await client.waitFor((l) => l.id === 7)).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect((await client.request('hello')).ok).toBe(true);
  });

  it('parses a line split across two writes', async () => {
    const d = await daemon();
    const client = await connect(d);
    // The first write ends mid-request; waiting for the reply to the request
    // before it proves the daemon has read (and held) the first half.
    client.write('{"id":1,"cmd":"hello"}\n{"id":2,"cmd":"sta');
    await client.waitFor((l) => l.id === 1, 'reply 1');
    client.write('tus"}\n');
    expect(await client.waitFor((l) => l.id === 2, 'reply 2')).toMatchObject({ ok: true, result: { open: [] } });
  });

  it('parses a multi-byte character split across chunks', async () => {
    const d = await daemon();
    const client = await connect(d);
    const id = 'naïve-€-😀';
    const bytes = Buffer.from(`{"id":1,"cmd":"hello"}\n{"id":${JSON.stringify(id)},"cmd":"hello"}\n`);
    // cut inside the 4-byte emoji
    const cut = bytes.indexOf(Buffer.from('😀')) + 2;
    client.write(bytes.subarray(0, cut));
    await client.waitFor((l) => l.id === 1, 'reply 1');
    client.write(bytes.subarray(cut));
    expect(await client.waitFor((l) => l.id === id, 'the reply with the multi-byte id')).toMatchObject({ ok: true });
  });

  it('answers a line past the maximum length with line_too_long, then closes', async () => {
    const d = await daemon();
    const client = await connect(d);
    client.write('{"id":1,"cmd":"hello","pad":"' + 'x'.repeat(MAX_LINE_CHARS) + '"}\n');
    const error = await client.waitFor((l) => l.id === null, 'the error reply');
    expect(error).toMatchObject({ ok: false, error: { code: 'line_too_long' } });
    await client.ended;
    // the daemon itself is fine
    const other = await connect(d);
    expect((await other.request('hello')).ok).toBe(true);
  });
});
