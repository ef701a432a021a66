/**
 * Live reload: a valid edit applies to requests that start
 * after it, keeping the breakers of seats and targets that still exist; an
 * invalid one is refused whole; the listen address, the socket and the
 * decision log path can't change without a restart.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DecisionEvent, loadConfig, type ReloadEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDaemon, startDaemon } from '../../src/start.js';
import { LineClient } from '../control/line-client.js';
import { EventRecorder, isBreaker } from '../helpers/events.js';
import { type FakeUpstream, openaiChatCompletion, respond, startFakeUpstream } from '../helpers/fake-upstream.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../helpers/cli-process.js';

const env = { KEY_A: 'sk-reload-a', KEY_B: 'sk-reload-b', TOK_CI: 'tok-reload-ci', TOK_ME: 'tok-reload-me' };
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
  write(routes: string[], extra?: string[], seats?: string[], more?: More): Promise<void>;
  post(model: string, headers?: Record<string, string>): Promise<Response>;
}

/** More of the config: entries of the `server` mapping, and seat a's `reserve_pct`. */
interface More {
  server?: string;
  reserveA?: number;
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
  const write = async (routes: string[], extra: string[] = [], seats = ['a', 'b'], more: More = {}) => {
    const reserve = more.reserveA === undefined ? '' : `, reserve_pct: ${more.reserveA}`;
    await writeFile(
      file,
      [
        `server: { listen: "127.0.0.1:0"${more.server === undefined ? '' : `, ${more.server}`} }`,
        `control: { socket: ${join(dir, 'c.sock')} }`,
        'decision_log: { path: false }',
        'seats:',
        ...(seats.includes('a') ? [`  - { id: a, provider: openai, base_url: "${a.url}", api_key_env: KEY_A${reserve} }`] : []),
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
  const post = (model: string, headers: Record<string, string> = {}) =>
    fetch(`${daemon.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
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

  it('refuses a change of listen, socket or decision log path, each naming its key, and keeps running', async () => {
    const f = await start();
    await f.write(['  - { model: gpt, chain: [{ seat: a, model: m }] }'], ['timeouts: { connect_ms: 5000 }']);
    const valid = await readFile(f.file, 'utf8');
    const edits: Array<[string, string, string]> = [
      ['server.listen', 'listen: "127.0.0.1:0"', 'listen: "127.0.0.1:1"'],
      ['control.socket', join(f.dir, 'c.sock'), join(f.dir, 'other.sock')],
      ['decision_log.path', 'decision_log: { path: false }', `decision_log: { path: ${join(f.dir, 'd.ndjson')} }`],
    ];
    for (const [key, from, to] of edits) {
      expect(valid).toContain(from);
      await writeFile(f.file, valid.replace(from, to));
      const outcome = f.daemon.context.reload();
      if (outcome.ok) throw new Error(`a change of ${key} must be refused`);
      expect(outcome.error.code).toBe('bad_config');
      // one line, naming only the key that changed
      expect(outcome.error.message.split('\n')).toEqual([`${f.file}: ${key}: can't change without a restart`]);
    }
    // nothing half-applied: the timeouts edit came with refused keys, the route gpt still has seat b
    expect(f.daemon.context.config.timeouts.connect_ms).not.toBe(5000);
    expect((await f.post('gpt')).status).toBe(200);
    await writeFile(f.file, valid);
    expect(f.daemon.context.reload()).toMatchObject({ ok: true });
    expect(f.daemon.context.config.timeouts.connect_ms).toBe(5000);
  });

  it('applies aliases, agents with their tokens and scopes, lanes and reserves to the requests after it', async () => {
    const f = await start();
    const decision = async (res: Response): Promise<DecisionEvent> => {
      await res.arrayBuffer();
      const id = res.headers.get('x-routeplane-request-id');
      return f.events.take((e): e is DecisionEvent => e.type === 'decision' && e.request_id === id);
    };
    // before: no alias, no token needed, foreground, seat a first
    expect((await f.post('fast')).status).toBe(404);
    expect((await decision(await f.post('gpt'))).served_by).toBe('a/m');

    await f.write(
      [
        '  - { model: gpt, chain: [{ seat: a, model: m }, { seat: b, model: m }] }',
        '  - { model: batch, lane: background, chain: [{ seat: b, model: m }] }',
      ],
      ['aliases: { fast: gpt }'],
      ['a', 'b'],
      {
        server: 'agents: [{ id: ci, token_env: TOK_CI, allow: [gpt], lane: background }, { id: me, token_env: TOK_ME, deny: [batch] }]',
        reserveA: 50,
      },
    );
    expect(f.daemon.context.reload()).toMatchObject({ ok: true });
    const me = { authorization: 'Bearer tok-reload-me' };
    const ci = { authorization: 'Bearer tok-reload-ci' };

    // agents: a token is now required, and each agent's scope holds
    expect((await f.post('gpt')).status).toBe(401);
    const denied = await decision(await f.post('batch', me));
    expect(denied).toMatchObject({ agent: 'me', route: 'batch', status: 403 });
    expect((await decision(await f.post('batch', ci))).status).toBe(403);
    // aliases: fast resolves to gpt
    const aliased = await decision(await f.post('fast', me));
    expect(aliased).toMatchObject({ requested: 'fast', route: 'gpt', agent: 'me', lane: 'foreground', served_by: 'a/m' });

    // reserve: seat a reports 70% of its requests used (above the 50% line) — background work goes past it
    f.a.enqueue((req, res) =>
      respond.json(200, openaiChatCompletion('m', 'hi'), {
        'x-ratelimit-limit-requests': '100',
        'x-ratelimit-remaining-requests': '30',
        'x-ratelimit-reset-requests': '10m0s',
      })(req, res),
    );
    expect((await decision(await f.post('gpt', me))).served_by).toBe('a/m');
    // lanes: the agent's default lane
    const background = await decision(await f.post('gpt', ci));
    expect(background).toMatchObject({ agent: 'ci', lane: 'background', served_by: 'b/m' });
    expect(background.chain.at(-1)).toMatchObject({ seat: 'a', state: 'tripped', reason: 'reserve' });
    // foreground still uses seat a
    expect((await decision(await f.post('gpt', me))).served_by).toBe('a/m');

    // a route's lane: me's requests to a background route (after allowing it)
    await f.write(
      [
        '  - { model: gpt, chain: [{ seat: a, model: m }, { seat: b, model: m }] }',
        '  - { model: batch, lane: background, chain: [{ seat: b, model: m }] }',
      ],
      [],
      ['a', 'b'],
      { server: 'agents: [{ id: me, token_env: TOK_ME }]' },
    );
    expect(f.daemon.context.reload()).toMatchObject({ ok: true });
    expect(await decision(await f.post('batch', me))).toMatchObject({ agent: 'me', lane: 'background', served_by: 'b/m' });
    // the ci token is gone with its agent
    expect((await f.post('gpt', ci)).status).toBe(401);
  });

  it('routeplane reload exits 0 when the edit is applied and 2 when it is refused', async () => {
    requireBuiltCli();
    const f = await start();
    const home = tempHome();
    cleanup.push(() => home.remove());
    await f.write(['  - { model: gpt, chain: [{ seat: a, model: m }] }', '  - { model: fresh, chain: [{ seat: b, model: m2 }] }']);
    const applied = await runCli(['reload', '--socket', f.daemon.socketPath], isolatedEnv(home.dir), home.dir);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/config reloaded/);
    expect(applied.stdout).toMatch(/routes \+fresh ~gpt/);

    await f.write(['  - { model: gpt, chain: [{ seat: nope, model: m }] }']);
    const refused = await runCli(['reload', '--socket', f.daemon.socketPath], isolatedEnv(home.dir), home.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/reload refused/);
    expect(refused.stderr).toMatch(/unknown seat "nope"/);
    // the applied edit still stands
    expect((await f.post('fresh')).status).toBe(200);
  });
});
