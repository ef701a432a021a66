import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

// Stopping the demo from outside, as Ctrl-C or a service manager would, and
// refusing a bad scenario: run the built CLI (needs `pnpm build`).

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const running: ChildProcessWithoutNullStreams[] = [];

interface Spawned {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  /** resolves once stdout has a line matching `pattern` */
  lineMatching(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

function demo(args: string[]): Spawned {
  const child = spawn(process.execPath, [CLI, 'demo', ...args], { env: { ...process.env, NO_COLOR: '1' } });
  running.push(child);
  const output = { stdout: '', stderr: '' };
  const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
    for (const w of [...waiters]) {
      const line = output.stdout.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    output,
    exited,
    lineMatching(pattern) {
      const found = output.stdout.split('\n').find((l) => pattern.test(l));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        void exited.then(() => reject(new Error(`exited before printing ${pattern}\nstdout: ${output.stdout}\nstderr: ${output.stderr}`)));
      });
    },
  };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`pnpm build\` before this test`);
});

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('stopping routeplane demo', () => {
  it('on Ctrl-C (SIGINT) stops agents, daemon and seats, prints the summary, removes its temp dir, exits 0', async () => {
    const run = demo(['--no-top', '--speed', '4']);
    const tmpLine = await run.lineMatching(/temp dir\s+\S+/);
    const tmpDir = /temp dir\s+(\S+)/.exec(tmpLine)![1]!;
    expect(existsSync(join(tmpDir, 'control.sock'))).toBe(true);
    // the first decision printed: traffic is flowing through the daemon
    await run.lineMatching(/ \d+ms (seat-\S+ .* → )?seat-\S+\/\S+ ok/);
    run.child.kill('SIGINT');
    expect(await run.exited, run.output.stderr).toBe(0);
    const summary = /summary: (\d+) requests sent, (\d+) responses received/.exec(run.output.stdout);
    expect(summary, run.output.stdout.slice(-2000)).not.toBeNull();
    expect(summary![2]).toBe(summary![1]);
    expect(existsSync(tmpDir)).toBe(false);
  }, 60_000);

  it('on SIGTERM does the same, ending its NDJSON with the summary', async () => {
    const run = demo(['--no-top', '--json', '--speed', '4']);
    const start = JSON.parse(await run.lineMatching(/"type":"demo_start"/)) as { tmp_dir: string };
    await run.lineMatching(/"type":"decision"/);
    run.child.kill('SIGTERM');
    expect(await run.exited, run.output.stderr).toBe(0);
    const lines = run.output.stdout
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

  it('on SIGHUP (its terminal closed) cleans up the same way', async () => {
    const run = demo(['--no-top', '--speed', '4']);
    const tmpDir = /temp dir\s+(\S+)/.exec(await run.lineMatching(/temp dir\s+\S+/))![1]!;
    await run.lineMatching(/ \d+ms (seat-\S+ .* → )?seat-\S+\/\S+ ok/);
    run.child.kill('SIGHUP');
    expect(await run.exited, run.output.stderr).toBe(0);
    expect(run.output.stdout).toMatch(/summary: \d+ requests sent/);
    expect(existsSync(tmpDir)).toBe(false);
  }, 60_000);

  it('refuses a bad scenario with one line naming file and path, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'routeplane-demo-scenario-'));
    try {
      const file = join(dir, 'broken.yaml');
      writeFileSync(
        file,
        'seats:\n  - id: seat-a\n    provider: anthropic\n    models: [m]\n    timline: []\nroutes:\n  - model: x\n    chain: [seat-a/m]\n',
      );
      const run = demo(['--no-top', '--scenario', file]);
      expect(await run.exited).toBe(2);
      expect(run.output.stderr.trim()).toBe(`${file}: seats[0].timline: unknown key (did you mean timeline?) (line 5)`);
      expect(run.output.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
