/**
 * Switching influence on and off by reload where breakers are kept beyond
 * memory: a state file follows the engine the daemon routes with — after off and on
 * again, and for a daemon started with influence off — and a shared store,
 * joined once at start, refuses the switch.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, parseStateFile, type StateFile } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDaemon, startDaemon } from '../../src/start.js';
import { closedPortUrl } from '../helpers/closed-port.js';
import { EventRecorder, isBreaker } from '../helpers/events.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../helpers/fake-upstream.js';

/** a save comes within 1 s of a change; the bound is generous for two busy cores */
const SAVED = { timeout: 10_000 };
const env = { KEY_A: 'sk-reload-influence-a' };

let cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

interface Fixture {
  dir: string;
  up: FakeUpstream;
  /** writes the config file with this `influence:` mapping (flow YAML) */
  write(influence: string): Promise<void>;
  start(): Promise<{ daemon: RunningDaemon; events: EventRecorder }>;
}

async function fixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'rp-reload-influence-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const up = await startFakeUpstream(respond.openaiChat());
  cleanup.push(() => up.close());
  const file = join(dir, 'routeplane.yaml');
  const write = (influence: string) =>
    writeFile(
      file,
      [
        'server: { listen: "127.0.0.1:0" }',
        `control: { socket: ${join(dir, 'c.sock')} }`,
        'decision_log: { path: false }',
        'seats:',
        `  - { id: a, provider: openai, base_url: "${up.url}", api_key_env: KEY_A }`,
        'routes:',
        '  - { model: gpt, chain: [{ seat: a, model: m }] }',
        `influence: ${influence}`,
        '',
      ].join('\n'),
    );
  const start = async () => {
    const loaded = loadConfig(file, env);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
    const daemon = await startDaemon(loaded.config, { env, configPath: file });
    const events = new EventRecorder(daemon.context.bus);
    cleanup.push(
      () => events.stop(),
      () => daemon.close(1000),
    );
    return { daemon, events };
  };
  return { dir, up, write, start };
}

/** A 402 from seat a: its credit breaker trips. */
async function tripSeatA(f: Fixture, daemon: RunningDaemon, events: EventRecorder): Promise<void> {
  f.up.enqueue(respond.status(402));
  const res = await fetch(`${daemon.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt', messages: [] }),
  });
  await res.arrayBuffer();
  await events.take(isBreaker('tripped', 'a'));
}

/** The file as it is now, or null while it is missing or unparseable. */
function onDisk(path: string): StateFile | null {
  if (!existsSync(path)) return null;
  const parsed = parseStateFile(JSON.parse(readFileSync(path, 'utf8')));
  return parsed.ok ? parsed.state : null;
}

describe('switching influence by reload, with a state file', () => {
  it('off and on again: the new engine trips, and the file holds its breaker', async () => {
    const f = await fixture();
    const path = join(f.dir, 'breakers.json');
    const on = `{ enabled: true, cooldown_secs: 600, state_file: ${path} }`;
    await f.write(on);
    const { daemon, events } = await f.start();
    expect(daemon.stateFile).toBe(path);

    await f.write(`{ enabled: false, cooldown_secs: 600, state_file: ${path} }`);
    expect(daemon.context.reload()).toMatchObject({ ok: true });
    await f.write(on);
    expect(daemon.context.reload()).toMatchObject({ ok: true });

    await tripSeatA(f, daemon, events);
    await expect.poll(() => onDisk(path)?.breakers.map((b) => b.key), SAVED).toEqual(['credit:a']);
  });

  it('started off, the file is left alone; the reload that switches influence on loads it and saves to it', async () => {
    const f = await fixture();
    const path = join(f.dir, 'breakers.json');
    const on = `{ enabled: true, cooldown_secs: 600, state_file: ${path} }`;
    // an earlier daemon left seat a's credit breaker in the file
    await f.write(on);
    const first = await f.start();
    await tripSeatA(f, first.daemon, first.events);
    await first.daemon.close(1000);
    expect(onDisk(path)?.breakers.map((b) => b.key)).toEqual(['credit:a']);
    const saved = readFileSync(path, 'utf8');

    await f.write(`{ enabled: false, cooldown_secs: 600, state_file: ${path} }`);
    const { daemon, events } = await f.start();
    expect(daemon.stateFile).toBeNull();
    expect(daemon.context.influence.breakers()).toEqual([]);
    expect(readFileSync(path, 'utf8')).toBe(saved);

    await f.write(on);
    expect(daemon.context.reload()).toMatchObject({ ok: true });
    await expect.poll(() => daemon.context.influence.breakers().map((b) => b.key), SAVED).toEqual(['credit:a']);

    // the restored breaker ends by command; a new trip of the same seat goes to the file
    daemon.context.influence.reset('a');
    await events.take(isBreaker('reset', 'a'));
    await expect.poll(() => onDisk(path)?.breakers, SAVED).toEqual([]);
    expect(readFileSync(path, 'utf8')).not.toBe(saved);
    await tripSeatA(f, daemon, events);
    await expect.poll(() => onDisk(path)?.breakers.map((b) => b.key), SAVED).toEqual(['credit:a']);
  });
});

describe('switching influence by reload, with a shared store', () => {
  it('is refused, naming the key: the store is joined once, at start', async () => {
    const f = await fixture();
    const redis = `${(await closedPortUrl()).replace('http:', 'redis:')}/0`;
    await f.write(`{ enabled: true, shared: { redis_url: "${redis}" } }`);
    const { daemon, events } = await f.start();
    await f.write(`{ enabled: false, shared: { redis_url: "${redis}" } }`);
    const outcome = daemon.context.reload();
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: 'bad_config',
        message: expect.stringMatching(/influence\.enabled \(while influence\.shared is set\): can't change without a restart/),
      },
    });
    expect(events.all((e) => e.type === 'reload')).toEqual([expect.objectContaining({ ok: false })]);
    expect(daemon.context.influence.enabled).toBe(true);
  });
});
