import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respond, startFakeUpstream, type FakeUpstream } from '../../../daemon/test/helpers/fake-upstream.js';
import {
  type CliProcess,
  isolatedEnv,
  requireBuiltCli,
  runCli,
  spawnCli,
  tempHome,
  type TempHome,
} from '../../../daemon/test/helpers/cli-process.js';

/**
 * `routeplane breakers probe` against one
 * `routeplane serve` started once for every case: its two lines, the
 * influence-disabled line, a missing `--seat`, an unknown seat or target.
 * Seat max-a answers 402 (a request trips its credit breaker), seat team
 * answers 200.
 */
const KEY = 'sk-probe-cli-test-7d1e0c';

let home: TempHome;
let credit: FakeUpstream;
let ok: FakeUpstream;
let daemon: CliProcess;
let url: string;
let socket: string;
let config: string;

function writeConfig(influenceEnabled: boolean): void {
  writeFileSync(
    config,
    [
      'server:',
      '  listen: "127.0.0.1:0"',
      'control:',
      `  socket: "${join(home.dir, 'control.sock')}"`,
      'decision_log:',
      '  path: false',
      'seats:',
      '  - { id: max-a, provider: anthropic, base_url: "' + credit.url + '", api_key_env: RP_PROBE_KEY }',
      '  - { id: team, provider: anthropic, base_url: "' + ok.url + '", api_key_env: RP_PROBE_KEY }',
      'routes:',
      '  - model: sonnet',
      '    chain:',
      '      - { seat: max-a, model: sonnet-x }',
      '      - { seat: team, model: sonnet-x }',
      'influence:',
      `  enabled: ${influenceEnabled}`,
      '  cooldown_secs: 600',
      '',
    ].join('\n'),
  );
}

const probe = (...args: string[]) => runCli(['breakers', 'probe', '--socket', socket, ...args], isolatedEnv(home.dir), home.dir);

beforeAll(async () => {
  requireBuiltCli();
  home = tempHome();
  credit = await startFakeUpstream(respond.status(402));
  ok = await startFakeUpstream(respond.anthropicMessage());
  config = join(home.dir, 'routeplane.yaml');
  writeConfig(true);
  daemon = spawnCli(['serve', '--config', config], isolatedEnv(home.dir, { RP_PROBE_KEY: KEY }), home.dir);
  ({ url, socket } = await daemon.listening());
});

afterAll(async () => {
  await daemon?.kill();
  await credit?.close();
  await ok?.close();
  home?.remove();
});

describe('routeplane breakers probe', () => {
  it('prints the two lines with the count made probe-ready: 1 for a seat out of credit, then 0 (already ready)', async () => {
    const res = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sonnet', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();

    const first = await probe('--seat', 'max-a');
    expect(first).toEqual({ code: 0, signal: null, stdout: '● routing-influence breakers probe\n  ready     1 breaker(s)\n', stderr: '' });
    const again = await probe('--seat', 'max-a');
    expect(again.stdout).toBe('● routing-influence breakers probe\n  ready     0 breaker(s)\n');
    // a target with nothing open
    const target = await probe('--seat', 'team', '--model', 'sonnet-x');
    expect(target).toMatchObject({ code: 0, stdout: '● routing-influence breakers probe\n  ready     0 breaker(s)\n' });
  });

  it('without --seat: says it needs one and exits 2', async () => {
    const result = await probe();
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd()).toBe('routeplane: breakers probe needs --seat (and optionally --model)');
  });

  it('names an unknown seat or target in one line and exits 1', async () => {
    const [seat, target] = await Promise.all([probe('--seat', 'nope'), probe('--seat', 'team', '--model', 'nope-model')]);
    expect(seat.code).toBe(1);
    expect(seat.stdout).toBe('');
    expect(seat.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(seat.stderr).toContain('unknown seat "nope"');

    expect(target.code).toBe(1);
    expect(target.stdout).toBe('');
    expect(target.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(target.stderr).toContain('unknown target "team/nope-model"');
  });

  it('says so when routing influence is disabled, and exits 0', async () => {
    // the same daemon, its config reloaded with influence off (and back on after)
    writeConfig(false);
    try {
      expect(await runCli(['reload', '--socket', socket], isolatedEnv(home.dir), home.dir)).toMatchObject({ code: 0 });
      const result = await probe('--seat', 'max-a');
      expect(result).toEqual({ code: 0, signal: null, stdout: 'routing influence is disabled (no breakers to probe)\n', stderr: '' });
    } finally {
      writeConfig(true);
      await runCli(['reload', '--socket', socket], isolatedEnv(home.dir), home.dir);
    }
  });
});
