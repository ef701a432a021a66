/**
 * `--env-file FILE`: the seats' keys in a file of NAME=value lines instead
 * of the shell's environment. `config check` reads it as `serve` does;
 * `serve` reads it at start and every reload reads it again, so a seat added
 * with its key there needs no restart; a reload refused for a variable that
 * is not set says why the daemon cannot see it and what to do.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentWith } from '@routeplane/shared';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type CliProcess, isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHomeFor } from '../../../daemon/test/helpers/cli-process.js';
import { type FakeUpstream, respond, startFakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';

beforeAll(requireBuiltCli);

const KEY_A = 'sk-envfile-a-6d1f0c9e';
const KEY_B = 'sk-envfile-b-93be2a71';
const STALE_A = 'sk-envfile-stale-a-0000';

interface Seat {
  id: string;
  variable: string;
  upstream: FakeUpstream;
}

function writeConfig(dir: string, seats: Seat[]): string {
  const file = join(dir, 'routeplane.yaml');
  writeFileSync(
    file,
    [
      'server: { listen: "127.0.0.1:0" }',
      'control: { socket: rp.sock }',
      'decision_log: { path: false }',
      'seats:',
      ...seats.map((s) => `  - { id: ${s.id}, provider: openai, base_url: "${s.upstream.url}", api_key_env: ${s.variable} }`),
      'routes:',
      ...seats.map((s) => `  - { model: via-${s.id}, chain: [{ seat: ${s.id}, model: m }] }`),
      'influence: { enabled: true }',
      '',
    ].join('\n'),
  );
  return file;
}

async function upstream(test: TestContext): Promise<FakeUpstream> {
  const u = await startFakeUpstream(respond.openaiChat());
  test.onTestFinished(() => u.close());
  return u;
}

function serve(test: TestContext, dir: string, args: string[], env: Record<string, string> = {}): CliProcess {
  const p = spawnCli(['serve', ...args], isolatedEnv(dir, env), dir);
  test.onTestFinished(() => p.kill());
  return p;
}

/** One chat request to `model`; the key the upstream received with it. */
async function keySentFor(url: string, model: string, seat: FakeUpstream): Promise<string | undefined> {
  const answer = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  return seat.requests.at(-1)?.headers.authorization;
}

describe.concurrent('--env-file', () => {
  it('config check reads the keys from the file, as serve does; without it, says where the keys were looked for', async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const config = writeConfig(dir, [{ id: 'a', variable: 'RP_KEY_A', upstream: a }]);
    writeFileSync(join(dir, 'keys.env'), `# the seats' keys\nRP_KEY_A=${KEY_A}\n`);

    const withFile = await runCli(['config', 'check', '--config', config, '--env-file', 'keys.env'], isolatedEnv(dir), dir);
    expect(withFile).toEqual({ code: 0, signal: null, stdout: `✓ ${config}: valid — 1 seat, 1 route, influence on\n`, stderr: '' });

    const without = await runCli(['config', 'check', '--config', config], isolatedEnv(dir), dir);
    expect(without.code).toBe(2);
    expect(without.stderr.trimEnd().split('\n')).toEqual([
      `${config}: seats[0].api_key_env: environment variable RP_KEY_A is not set (line 5)`,
      "routeplane: variables are read from this shell's environment; a daemon that gets them from a file (`serve --env-file FILE`) is checked with `config check --env-file FILE`",
    ]);

    for (const run of [withFile, without]) expect(run.stdout + run.stderr).not.toContain(KEY_A);
  });

  it('an env file that is not there: one line naming it, non-zero exit, nothing started', async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const config = writeConfig(dir, [{ id: 'a', variable: 'RP_KEY_A', upstream: a }]);
    const check = await runCli(['config', 'check', '--config', config, '--env-file', 'nope.env'], isolatedEnv(dir), dir);
    const started = await serve(test, dir, ['--config', config, '--env-file', 'nope.env']).exited;
    for (const result of [check, started]) {
      expect(result.stdout).toBe('');
      // Node itself looks for a file after every --env-file on its command line, also one meant
      // for the script, and stops with its own line (exit 9) before routeplane runs; a Node
      // that leaves it to the script gets routeplane's line (exit 2)
      expect([
        { code: 2, stderr: `${join(dir, 'nope.env')}: env file not found\n` },
        { code: 9, stderr: `${process.execPath}: nope.env: not found\n` },
      ]).toContainEqual({ code: result.code, stderr: result.stderr });
    }
    expect(existsSync(join(dir, 'rp.sock'))).toBe(false);
  });

  it('an env file read by routeplane itself: a missing one is named in its own words', () => {
    expect(environmentWith({ HOME: '/h' }, '/nowhere/keys.env')).toEqual({
      ok: false,
      issue: { file: '/nowhere/keys.env', path: '', message: 'env file not found' },
    });
    expect(environmentWith({ HOME: '/h', K: 'old' }, null)).toEqual({ ok: true, env: { HOME: '/h', K: 'old' } });
  });

  it("serve starts with the keys of the file, over the environment's, and says which file", async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const config = writeConfig(dir, [{ id: 'a', variable: 'RP_KEY_A', upstream: a }]);
    const keys = join(dir, 'keys.env');
    writeFileSync(keys, `RP_KEY_A="${KEY_A}"\n`);
    // the shell has an old copy of the key: the file's wins, as it is the one a reload reads again
    const daemon = serve(test, dir, ['--config', config, '--env-file', keys], { RP_KEY_A: STALE_A });
    const { url } = await daemon.listening();
    await daemon.until((p) => p.stderr.includes('influence '), 'the start lines');
    expect(daemon.stderr).toContain(`env file   ${keys} (read again by every reload)\n`);
    expect(await keySentFor(url, 'via-a', a)).toBe(`Bearer ${KEY_A}`);
    expect(daemon.stdout + daemon.stderr).not.toContain(KEY_A);
  });

  it('a reload reads the file again: a seat added with its key there serves without a restart', async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const b = await upstream(test);
    const seatA = { id: 'a', variable: 'RP_KEY_A', upstream: a };
    const config = writeConfig(dir, [seatA]);
    const keys = join(dir, 'keys.env');
    writeFileSync(keys, `RP_KEY_A=${KEY_A}\n`);
    const daemon = serve(test, dir, ['--config', config, '--env-file', keys]);
    const { url, socket } = await daemon.listening();

    // the seat's key first, then the seat: a reload in between would be refused
    writeFileSync(keys, `RP_KEY_A=${KEY_A}\nRP_KEY_B=${KEY_B}\n`);
    writeConfig(dir, [seatA, { id: 'b', variable: 'RP_KEY_B', upstream: b }]);
    const reload = await runCli(['reload', '--socket', socket], isolatedEnv(dir), dir);
    expect(reload).toMatchObject({ code: 0, stderr: '' });
    expect(reload.stdout).toContain('seats +b');
    expect(await keySentFor(url, 'via-b', b)).toBe(`Bearer ${KEY_B}`);
    expect(await keySentFor(url, 'via-a', a)).toBe(`Bearer ${KEY_A}`);
    expect(daemon.stdout + daemon.stderr + reload.stdout).not.toMatch(new RegExp(`${KEY_A}|${KEY_B}`));
  });

  it('a reload refused for a variable missing from the env file says the file was read again and to add it there', async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const b = await upstream(test);
    const seatA = { id: 'a', variable: 'RP_KEY_A', upstream: a };
    const config = writeConfig(dir, [seatA]);
    const keys = join(dir, 'keys.env');
    writeFileSync(keys, `RP_KEY_A=${KEY_A}\n`);
    const daemon = serve(test, dir, ['--config', config, '--env-file', keys]);
    const { socket } = await daemon.listening();

    writeConfig(dir, [seatA, { id: 'b', variable: 'RP_KEY_B', upstream: b }]);
    const refused = await runCli(['reload', '--socket', socket], isolatedEnv(dir), dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      'routeplane: reload refused; the daemon keeps its running config',
      `${config}: seats[1].api_key_env: environment variable RP_KEY_B is not set (line 6)`,
      `the daemon's environment was fixed when it started; this reload read ${keys} again: add the variable there and reload`,
    ]);
  });

  it("a reload refused for a variable exported after the start says the daemon's environment is fixed and names --env-file", async (test) => {
    const dir = tempHomeFor(test).dir;
    const a = await upstream(test);
    const b = await upstream(test);
    const seatA = { id: 'a', variable: 'RP_KEY_A', upstream: a };
    const config = writeConfig(dir, [seatA]);
    const daemon = serve(test, dir, ['--config', config], { RP_KEY_A: KEY_A });
    const { socket } = await daemon.listening();

    writeConfig(dir, [seatA, { id: 'b', variable: 'RP_KEY_B', upstream: b }]);
    // exported in the shell that reloads: it never reaches the running daemon
    const refused = await runCli(['reload', '--socket', socket], isolatedEnv(dir, { RP_KEY_B: KEY_B }), dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      'routeplane: reload refused; the daemon keeps its running config',
      `${config}: seats[1].api_key_env: environment variable RP_KEY_B is not set (line 6)`,
      "the daemon's environment was fixed when it started, so a variable exported since does not reach it: restart it with the variable set, or start it with `routeplane serve --env-file FILE` and keep the keys in FILE, which every reload reads again",
    ]);
    // the daemon says the same on its own stderr
    await daemon.until((p) => p.stderr.includes('--env-file FILE'), 'the refusal in the daemon log');
  });
});
