import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { isolatedEnv, requireBuiltCli, spawnCli, tempHomeFor, type CliProcess } from '../../../daemon/test/helpers/cli-process.js';

// Stopping the demo from outside, as Ctrl-C or a service manager would, and
// refusing a bad scenario: run the built CLI (needs `pnpm build`).

/** A demo of its own (own HOME, own temp dir), killed and removed when its test ends. */
function demo(args: string[], test: TestContext): CliProcess {
  const home = tempHomeFor(test, 'routeplane-demo-stop-');
  const run = spawnCli(['demo', ...args], isolatedEnv(home.dir), home.dir);
  test.onTestFinished(() => run.kill());
  return run;
}

beforeAll(requireBuiltCli);

// Each case runs a demo of its own and mostly waits for it (start-up, the first decision, the
// shutdown): side by side they take the time of the slowest, not of all five.
describe.concurrent('stopping routeplane demo', () => {
  it('on Ctrl-C (SIGINT) stops agents, daemon and seats, prints the summary, removes its temp dir, exits 0', async (test) => {
    const run = demo(['--no-top', '--speed', '4'], test);
    const tmpLine = await run.line(/temp dir\s+\S+/);
    const tmpDir = /temp dir\s+(\S+)/.exec(tmpLine)![1]!;
    expect(existsSync(join(tmpDir, 'control.sock'))).toBe(true);
    // the first decision printed: traffic is flowing through the daemon
    await run.line(/ \d+ms (seat-\S+ .* → )?seat-\S+\/\S+ ok/);
    run.child.kill('SIGINT');
    expect((await run.exited).code, run.stderr).toBe(0);
    const summary = /summary: (\d+) requests sent, (\d+) responses received/.exec(run.stdout);
    expect(summary, run.stdout.slice(-2000)).not.toBeNull();
    expect(summary![2]).toBe(summary![1]);
    expect(existsSync(tmpDir)).toBe(false);
  }, 60_000);

  it('on SIGTERM does the same, ending its NDJSON with the summary', async (test) => {
    const run = demo(['--no-top', '--json', '--speed', '4'], test);
    const start = JSON.parse(await run.line(/"type":"demo_start"/)) as { tmp_dir: string };
    await run.line(/"type":"decision"/);
    run.child.kill('SIGTERM');
    expect((await run.exited).code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    const last = lines.at(-1) as { type: string; reason: string; requests_sent: number; responses_received: number; aborted: number };
    expect(last.type).toBe('demo_summary');
    expect(last.reason).toBe('SIGTERM');
    expect(last.responses_received).toBe(last.requests_sent);
    expect(last.aborted).toBe(0);
    expect(existsSync(start.tmp_dir)).toBe(false);
  }, 60_000);

  it('on SIGHUP (its terminal closed) cleans up the same way', async (test) => {
    const run = demo(['--no-top', '--speed', '4'], test);
    const tmpDir = /temp dir\s+(\S+)/.exec(await run.line(/temp dir\s+\S+/))![1]!;
    await run.line(/ \d+ms (seat-\S+ .* → )?seat-\S+\/\S+ ok/);
    run.child.kill('SIGHUP');
    expect((await run.exited).code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/summary: \d+ requests sent/);
    expect(existsSync(tmpDir)).toBe(false);
  }, 60_000);

  it('with --duration stops by itself the same way, saying why in its summary', async (test) => {
    // the clock runs from the start, daemon start-up included: on a busy machine few requests or
    // none may fit in it, so only the way it ends is checked here (the traffic is demo.test.ts's)
    const run = demo(['--no-top', '--json', '--speed', '4', '--duration', '2'], test);
    const start = JSON.parse(await run.line(/"type":"demo_start"/)) as { tmp_dir: string };
    expect((await run.exited).code, run.stderr).toBe(0);
    const last = JSON.parse(run.stdoutLines.at(-1)!) as {
      type: string;
      reason: string;
      requests_sent: number;
      responses_received: number;
      aborted: number;
    };
    expect(last.type).toBe('demo_summary');
    expect(last.reason).toBe('duration');
    expect(last.responses_received).toBe(last.requests_sent);
    expect(last.aborted).toBe(0);
    expect(existsSync(start.tmp_dir)).toBe(false);
  }, 60_000);

  it('refuses a bad scenario with one line naming file and path, exit 2', async (test) => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplane-demo-scenario-'));
    try {
      const file = join(dir, 'broken.yaml');
      writeFileSync(
        file,
        'seats:\n  - id: seat-a\n    provider: anthropic\n    models: [m]\n    timline: []\nroutes:\n  - model: x\n    chain: [seat-a/m]\n',
      );
      const run = demo(['--no-top', '--scenario', file], test);
      expect((await run.exited).code).toBe(2);
      expect(run.stderr.trim()).toBe(`${file}: seats[0].timline: unknown key (did you mean timeline?) (line 5)`);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
