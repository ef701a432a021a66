import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStateFile, type StateFile } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { respond, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { startTestDaemon, type TestDaemon } from '../helpers/test-daemon.js';
import { controlLines } from '../helpers/control-lines.js';

/**
 * `influence.state_file` in a running daemon: changes reach
 * the file while it runs, a new daemon starts from it, an unusable file is
 * set aside with one line. Real daemons, real upstreams, a real file system.
 */

/** a save comes within 1 s of a change; the bound is generous for two busy cores */
const SAVED = { timeout: 10_000 };

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rp-statefile-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function upstream(behaviour = respond.status(402)): Promise<FakeUpstream> {
  const up = await startFakeUpstream(behaviour);
  cleanups.push(() => up.close());
  return up;
}

async function daemon(up: FakeUpstream, statePath: string, influence: Record<string, unknown> = {}): Promise<TestDaemon> {
  const t = await startTestDaemon({
    seats: [{ id: 'a', provider: 'openai', upstream: up }],
    routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'gpt-real' }] }],
    influence: { enabled: true, cooldown_secs: 600, trip_threshold: 3, state_file: statePath, ...influence },
    decisionLog: false,
  });
  cleanups.push(() => t.close());
  return t;
}

async function request(t: TestDaemon): Promise<void> {
  const res = await t.post('/v1/chat/completions', { model: 'gpt', messages: [] });
  await res.arrayBuffer();
  await t.events.nextDecision();
}

/** The file as it is now, or null while it is missing or (never expected) unparseable. */
function onDisk(path: string): StateFile | null {
  if (!existsSync(path)) return null;
  const parsed = parseStateFile(JSON.parse(readFileSync(path, 'utf8')));
  return parsed.ok ? parsed.state : null;
}

async function helloAndSnapshot(t: TestDaemon) {
  const [hello, snapshot] = (await controlLines(t.daemon.socketPath, [{ cmd: 'hello' }, { cmd: 'snapshot' }])).map((l) => JSON.parse(l));
  return { hello: hello.result, snapshot: snapshot.result };
}

describe('influence.state_file in a running daemon', () => {
  it('a trip and a bare streak each reach the file while the daemon runs, mode 0600', async () => {
    const path = join(stateDir(), 'breakers.json');
    const t = await daemon(await upstream(respond.status(500)), path);
    expect(t.daemon.stateFile).toBe(path);
    await request(t); // one model error: a streak of 1, no breaker and no breaker event
    await expect
      .poll(() => onDisk(path)?.streaks, SAVED)
      .toEqual([
        { scope: 'model', seat: 'a', model: 'gpt-real', count: 1, last_failure_at: expect.any(Number) },
        { scope: 'provider', upstream: expect.any(String), model: 'gpt-real', count: 1, last_failure_at: expect.any(Number), seats: ['a'] },
      ]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await request(t);
    await request(t);
    await expect.poll(() => onDisk(path)?.breakers.map((b) => b.key), SAVED).toEqual(['errors:a/gpt-real']);
  });

  it('a new daemon starts from the file: hello says how many came back, the snapshot shows them as they were', async () => {
    const path = join(stateDir(), 'breakers.json');
    const up = await upstream();
    const first = await daemon(up, path);
    await request(first); // 402: credit
    await request(first); // refused while open
    const before = await helloAndSnapshot(first);
    expect(before.snapshot.breakers).toHaveLength(1);
    await first.close();

    const second = await daemon(up, path);
    const after = await helloAndSnapshot(second);
    expect(after.hello.restored).toBe(1);
    expect(after.snapshot.breakers).toEqual(before.snapshot.breakers);
    expect(after.snapshot.breakers[0]).toMatchObject({ key: 'credit:a', refused_count: 1 });
    expect(after.snapshot.routes).toEqual(before.snapshot.routes);
  });

  it('with influence off the file is neither read nor written', async () => {
    const path = join(stateDir(), 'breakers.json');
    const up = await upstream();
    const first = await daemon(up, path);
    await request(first);
    await first.close();
    const text = readFileSync(path, 'utf8');

    const off = await daemon(up, path, { enabled: false });
    expect(off.daemon.stateFile).toBeNull();
    await request(off);
    expect((await helloAndSnapshot(off)).hello.restored).toBe(0);
    await off.close();
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(readdirSync(join(path, '..'))).toEqual(['breakers.json']);
  });

  it('an unusable file is moved aside with one line naming both paths; the daemon starts clean and saves anew', async () => {
    const dir = stateDir();
    const path = join(dir, 'breakers.json');
    writeFileSync(path, '{"version": 1, "breakers": [{"key": "credit:a"');
    const t = await daemon(await upstream(), path);
    expect(t.logs).toHaveLength(1);
    const match = /^routeplane: state file (\S+) is not valid JSON: moved it to (\S+), starting with no breakers$/.exec(t.logs[0]!);
    expect(match, t.logs[0]).not.toBeNull();
    expect(match![1]).toBe(path);
    expect(match![2]).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}\\.corrupt-\\d{13}$`));
    expect(readFileSync(match![2]!, 'utf8')).toBe('{"version": 1, "breakers": [{"key": "credit:a"');
    const { hello, snapshot } = await helloAndSnapshot(t);
    expect(hello.restored).toBe(0);
    expect(snapshot.breakers).toEqual([]);
    await request(t);
    await expect.poll(() => onDisk(path)?.breakers.map((b) => b.key), SAVED).toEqual(['credit:a']);
  });
});
