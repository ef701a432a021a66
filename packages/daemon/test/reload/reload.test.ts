/**
 * Live reload (spec/lanes.md): a valid edit applies to requests that start
 * after it, keeping the breakers of seats and targets that still exist; an
 * invalid one is refused whole; the listen address, the socket and the
 * decision log path can't change without a restart.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type ReloadEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDaemon, startDaemon } from '../../src/start.js';
import { LineClient } from '../control/line-client.js';
import { EventRecorder, isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';

const env = { KEY_A: 'sk-reload-a', KEY_B: 'sk-reload-b' };
let cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Fixture {
  file: string;
  dir: string;
  a: FakeUpstream;
  b: FakeUpstream;
  daemon: RunningDaemon;
  events: EventRecorder;
  write(routes: string[], extra?: string[], seats?: string[]): Promise<void>;
  post(model: string): Promise<Response>;
}

async function start(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'rp-reload-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const a = await startFakeUpstream(respond.openaiChat());
  const b = await startFakeUpstream(respond.openaiChat());
  cleanup.push(
    () => a.close(),
    () => b.close(),
  );
  const file = join(dir, 'routeplane.yaml');
  const write = async (routes: string[], extra: string[] = [], seats = ['a', 'b']) => {
    await writeFile(
      file,
      [
        'server: { listen: "127.0.0.1:0" }',
        `control: { socket: ${join(dir, 'c.sock')} }`,
        'decision_log: { path: false }',
        'seats:',
        ...(seats.includes('a') ? [`  - { id: a, provider: openai, base_url: "${a.url}", api_key_env: KEY_A }`] : []),
        ...(seats.includes('b') ? [`  - { id: b, provider: openai, base_url: "${b.url}", api_key_env: KEY_B }`] : []),
        'routes:',
        ...routes,
        'influence: { enabled: true, cooldown_secs: 60 }',
        ...extra,
        '',
      ].join('\n'),
    );
  };
  await write(['  - { model: gpt, chain: [{ seat: a, model: m }, { seat: b, model: m }] }']);
  const loaded = loadConfig(file, env);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
  const daemon = await startDaemon(loaded.config, { env, configPath: file });
  cleanup.push(() => daemon.close(1000));
  const events = new EventRecorder(daemon.context.bus);
  cleanup.push(() => events.stop());
  const post = (model: string) =>
    fetch(`${daemon.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [] }),
    });
  return { file, dir, a, b, daemon, events, write, post };
}

describe('live reload', () => {
  it('applies a valid edit to new requests and keeps the breakers of what still exists', async () => {
    const f = await start();
    f.a.enqueue(respond.status(402));
    expect((await f.post('gpt')).status).toBe(200);
    await f.events.take(isBreaker('tripped', 'a'));
    await f.write([
      '  - { model: gpt, chain: [{ seat: a, model: m }, { seat: b, model: m }] }',
      '  - { model: fresh, chain: [{ seat: b, model: m2 }] }',
    ]);
    const client = await LineClient.connect(f.daemon.socketPath);
    cleanup.push(() => client.close());
    const reply = await client.request('reload');
    expect(reply).toMatchObject({ ok: true, result: { changes: ['routes +fresh'] } });
    const reload = f.events.all((e): e is ReloadEvent => e.type === 'reload');
    expect(reload).toEqual([expect.objectContaining({ type: 'reload', ok: true, errors: [] })]);
    // the new route answers; the credit breaker of seat a is still there
    const fresh = await f.post('fresh');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('x-routeplane-target')).toBe('b/m2');
    expect(f.daemon.context.influence.breakers().map((b) => b.key)).toEqual(['credit:a']);
  });

  it('drops the breakers of a removed seat with a reset "removed by reload"', async () => {
    const f = await start();
    f.a.enqueue(respond.status(402));
    await (await f.post('gpt')).text();
    await f.events.take(isBreaker('tripped', 'a'));
    await f.write(['  - { model: gpt, chain: [{ seat: b, model: m }] }'], [], ['b']);
    expect(f.daemon.context.reload()).toMatchObject({ ok: true, result: { changes: ['seats -a', 'routes ~gpt'] } });
    const reset = await f.events.take(isBreaker('reset', 'a'));
    expect(reset).toMatchObject({ key: 'credit:a', reason: 'removed by reload', breaker: null });
  });

  it('refuses an invalid edit whole: nothing changes, and it says why', async () => {
    const f = await start();
    await f.write(['  - { model: gpt, chain: [{ seat: nope, model: m }] }', '  - { model: other, chain: [{ seat: b, model: m }] }']);
    const outcome = f.daemon.context.reload();
    expect(outcome).toMatchObject({ ok: false, error: { code: 'bad_config' } });
    if (outcome.ok) throw new Error('refused expected');
    expect(outcome.error.message).toMatch(/routes\[0\]\.chain\[0\]\.seat: unknown seat "nope"/);
    const event = f.events.all((e): e is ReloadEvent => e.type === 'reload')[0];
    expect(event).toMatchObject({ ok: false, errors: [expect.stringMatching(/unknown seat "nope"/)] });
    // the old routes still stand
    expect((await f.post('gpt')).status).toBe(200);
    expect((await f.post('other')).status).toBe(404);
  });

  it('refuses a change of listen, socket or decision log path, naming the key', async () => {
    const f = await start();
    await f.write(['  - { model: gpt, chain: [{ seat: a, model: m }] }'], ['timeouts: { connect_ms: 5000 }']);
    const text = (await import('node:fs/promises')).readFile;
    const body = (await text(f.file, 'utf8')).replace(
      'decision_log: { path: false }',
      `decision_log: { path: ${join(f.dir, 'd.ndjson')} }`,
    );
    await writeFile(f.file, body);
    const outcome = f.daemon.context.reload();
    expect(outcome).toMatchObject({
      ok: false,
      error: { code: 'bad_config', message: expect.stringMatching(/decision_log\.path: can't change without a restart/) },
    });
  });
});
