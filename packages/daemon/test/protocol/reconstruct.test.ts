/**
 * Protocol v2's promise: a client that sends `subscribe`
 * then `snapshot` on one connection, and applies every event with a greater
 * `seq`, holds exactly what the next snapshot says — through trips, probes,
 * clears, resets, probe commands and refused counts. Driven against the built
 * CLI (`routeplane serve`) over the socket, with a seeded random fault schedule
 * over several routes and two upstreams (so the provider layer trips too).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyBreakerEvent,
  type Breaker,
  type BreakerEvent,
  projectRoutes,
  type RouteRef,
  routeRefOf,
  type Snapshot,
} from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliProcess, isolatedEnv, requireBuiltCli, spawnCli, tempHome } from '../helpers/cli-process.js';
import { LineClient } from '../control/line-client.js';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';

/** mulberry32: a small seeded generator, so a failing schedule can be replayed from its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** What a subscriber knows: the first snapshot and every event after it, in order. */
class Projection {
  readonly events: BreakerEvent[] = [];
  constructor(readonly first: Snapshot) {}

  /** The breakers and routes as of `seq`, rebuilt from the first snapshot and the events up to it. */
  at(seq: number): { breakers: Breaker[]; routes: Snapshot['routes'] } {
    const breakers = new Map(this.first.breakers.map((b) => [b.key, b]));
    for (const event of this.events) if (event.seq > this.first.seq && event.seq <= seq) applyBreakerEvent(breakers, event);
    const upstream = new Map(this.first.seats.map((s) => [s.id, s.upstream]));
    const refs: RouteRef[] = this.first.routes.map(routeRefOf);
    return { breakers: [...breakers.values()], routes: projectRoutes(refs, breakers.values(), (seat) => upstream.get(seat) ?? '') };
  }
}

const byKey = (breakers: Breaker[]) => [...breakers].sort((a, b) => a.key.localeCompare(b.key));

describe('protocol v2: a snapshot plus the events after its seq is the next snapshot', () => {
  it('holds through a random fault schedule over several routes (trips, probes, clears, resets, refused counts)', async () => {
    requireBuiltCli();
    const seed = Number(process.env.RECONSTRUCT_SEED ?? Date.now() % 100_000);
    const random = seeded(seed);
    const home = tempHome();
    cleanup.push(() => home.remove());

    // Answers drawn per request: mostly fine, with credit, rate limits, errors and request faults.
    const answer = () => {
      const r = random();
      if (r < 0.45) return respond.json(200, { id: 'x', choices: [] });
      if (r < 0.55) return respond.json(402, { error: { message: 'out of credit', type: 'billing' } });
      if (r < 0.65) return respond.json(429, { error: { message: 'slow down' } }, { 'retry-after': '0.3' });
      if (r < 0.9) return respond.json(500, { error: { message: 'boom' } });
      return respond.json(400, { error: { message: 'bad request' } });
    };
    const shared: FakeUpstream = await startFakeUpstream((req, res) => answer()(req, res));
    const other: FakeUpstream = await startFakeUpstream((req, res) => answer()(req, res));
    cleanup.push(
      () => shared.close(),
      () => other.close(),
    );

    const config = join(home.dir, 'routeplane.yaml');
    writeFileSync(
      config,
      [
        'server: { listen: 127.0.0.1:0 }',
        `control: { socket: ${join(home.dir, 'rp.sock')} }`,
        'decision_log: { path: false }',
        'seats:',
        `  - { id: s1, provider: openai, base_url: "${shared.url}", api_key_env: K1 }`,
        `  - { id: s2, provider: openai, base_url: "${shared.url}/", api_key_env: K2 }`,
        `  - { id: s3, provider: openai, base_url: "${other.url}", api_key_env: K3 }`,
        'routes:',
        '  - { model: r1, chain: [{ seat: s1, model: m }, { seat: s2, model: m }, { seat: s3, model: m }] }',
        '  - { model: r2, chain: [{ seat: s2, model: m }, { seat: s3, model: n }] }',
        '  - { model: r3, chain: [{ seat: s3, model: n }, { seat: s1, model: n }] }',
        'influence: { enabled: true, cooldown_secs: 0.3, max_cooldown_secs: 1.2, trip_threshold: 2, window_secs: 5 }',
        '',
      ].join('\n'),
    );
    const serve: CliProcess = spawnCli(
      ['serve', '--config', config],
      isolatedEnv(home.dir, { K1: 'sk-one', K2: 'sk-two', K3: 'sk-three' }),
      home.dir,
    );
    cleanup.push(() => serve.kill());
    const { url, socket } = await serve.listening();

    // The subscriber: subscribe, then snapshot, on one connection.
    const watcher = await LineClient.connect(socket);
    const commands = await LineClient.connect(socket);
    cleanup.push(
      () => watcher.close(),
      () => commands.close(),
    );
    await watcher.request('subscribe');
    const { result: first } = await watcher.request('snapshot');
    const projection = new Projection(first as Snapshot);
    // every event counts for the seq reached (decisions too); breaker events are the ones applied
    let lastSeq = first.seq as number;
    const seen = () => {
      const events = watcher.events().filter((e: { seq?: number }) => (e.seq ?? 0) > lastSeq);
      for (const e of events) if (e.type === 'breaker') projection.events.push(e);
      if (events.length > 0) lastSeq = events.at(-1).seq;
    };

    const routes = ['r1', 'r2', 'r3'];
    const post = async (model: string) => {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [] }),
      });
      await res.arrayBuffer();
    };
    /** The next snapshot (another connection) against what the watcher rebuilt up to its seq. */
    const check = async () => {
      const { result: next } = await commands.request('snapshot');
      await watcher.waitFor(() => {
        seen();
        return lastSeq >= next.seq;
      }, `events up to seq ${next.seq} (seed ${seed})`);
      const rebuilt = projection.at(next.seq);
      expect(byKey(rebuilt.breakers), `breakers at seq ${next.seq}, seed ${seed}`).toEqual(byKey(next.breakers));
      expect(rebuilt.routes, `routes at seq ${next.seq}, seed ${seed}`).toEqual(next.routes);
      return next as Snapshot;
    };
    let checks = 0;
    for (let round = 0; round < 12; round++) {
      const burst = 4 + Math.floor(random() * 8);
      await Promise.all(Array.from({ length: burst }, () => post(routes[Math.floor(random() * routes.length)]!)));
      const r = random();
      if (r < 0.15) await commands.request('reset', { seat: 's1' });
      else if (r < 0.25) await commands.request('probe', { seat: 's3' });
      else if (r < 0.3) await commands.request('reset');

      // The next snapshot (another connection): wait until the watcher has every event up to its seq.
      const next = await check();
      checks++;
      // now and then, wait for a deadline to pass, so timers move things between snapshots
      if (random() < 0.4 && next.breakers.some((b: Breaker) => b.phase === 'open')) {
        const after = next.seq;
        await watcher.waitFor(
          (l) => l.event?.type === 'breaker' && l.event.seq > after && (l.event.action === 'probe_ready' || l.event.action === 'cleared'),
          `a deadline passing (seed ${seed})`,
        );
      }
    }
    expect(checks).toBe(12);

    // A last, scripted round, so every kind of change is in the stream whatever the seed drew.
    await commands.request('reset');
    shared.enqueue(respond.json(402, { error: { message: 'out of credit', type: 'billing' } }));
    await post('r1'); // s1 out of credit: tripped
    await commands.request('reset', { seat: 's1' }); // reset
    shared.enqueue(respond.json(402, { error: { message: 'out of credit', type: 'billing' } }));
    await post('r1'); // tripped again
    await commands.request('probe', { seat: 's1' }); // probe-ready now
    shared.enqueue(respond.json(200, { id: 'x', choices: [] }));
    await post('r1'); // probe claimed, and it clears
    other.enqueue(respond.json(402, { error: { message: 'out of credit', type: 'billing' } }));
    await post('r3'); // s3 out of credit
    shared.enqueue(respond.json(500, { error: { message: 'boom' } }));
    other.enqueue(respond.json(402, { error: { message: 'still out' } }));
    await post('r3'); // s1 fails first, then s3 again while tripped: refused
    await check();
    const actions = new Set(projection.events.map((e) => e.action));
    for (const action of ['tripped', 'probe_claimed', 'refused', 'reset']) expect(actions, `seed ${seed}`).toContain(action);
  });
});
