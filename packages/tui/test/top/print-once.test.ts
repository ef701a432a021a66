import type { Snapshot } from '@routeplane/shared';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { runTop } from '../../src/top/run.js';
import { FakeDaemon } from './support/fake-daemon.js';
import { troubledBreakers } from './support/fixtures.js';

/**
 * `top` when stdout is not a terminal (as in this test worker): one snapshot,
 * plain or `--json`, from a daemon speaking protocol v2 on a real socket.
 * (e2e-print.test.ts runs the built CLI against the real daemon.)
 */
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function printed(socketPath: string, json: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const code = await runTop({ socketPath, json });
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

async function daemonWith(options: Parameters<typeof FakeDaemon.start>[0]) {
  const daemon = await FakeDaemon.start(options);
  cleanups.push(() => daemon.close());
  return daemon;
}

describe('top, not on a terminal', () => {
  test('prints one plain-text snapshot: header, chains as ordered, every breaker on its seat', async () => {
    const daemon = await daemonWith({ breakers: troubledBreakers(Date.now()) });
    const { code, stdout, stderr } = await printed(daemon.socketPath, false);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).not.toContain('\x1b');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^routeplane {2}http:\/\/127\.0\.0\.1:4141 · up 5m1[12]s · daemon 0\.2\.0 pid 4242$/);
    expect(lines[1]).toBe('influence on · requests 120 · fail-overs 9 · fail-open 1 · store memory');
    const chains = lines.indexOf('CHAINS (order a request tries now)');
    expect(lines.slice(chains + 1, chains + 4)).toEqual([
      ' sonnet    ● healthy    personal-pro/claude-sonnet-4-5',
      expect.stringMatching(/^ {11}✗ credit {5}work-max\/claude-sonnet-4-5 {14}probe in 3m0[45]s$/),
      expect.stringMatching(/^ {11}✗ rate-limit openrouter\/anthropic\/claude-sonnet-4\.5 {2}ends in 4[12]s$/),
    ]);
    const seats = lines.indexOf('SEATS (breakers and usage)');
    expect(lines.slice(seats + 1)).toEqual([
      expect.stringMatching(/^ work-max {10}✗ credit {6}probe in 3m0[45]s · failed again 4 · 1 failed probe$/),
      ' personal-pro      ● healthy     anthropic',
      expect.stringMatching(/^ └ claude-opus-4-1 ✗ errors {6}probe in 5[45]s · failed again 2$/),
      expect.stringMatching(/^ openrouter {8}✗ rate-limit {2}ends in 4[12]s · failed again 1$/),
    ]);
    expect(daemon.requests.map((r) => r.cmd)).toEqual(['hello', 'snapshot']);
  });

  test('--json prints the snapshot as the daemon sent it, on one line', async () => {
    const daemon = await daemonWith({ breakers: troubledBreakers(Date.now()) });
    const { code, stdout } = await printed(daemon.socketPath, true);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const snapshot = JSON.parse(stdout) as Snapshot;
    expect(snapshot.seq).toBe(0);
    expect(snapshot.breakers.map((b) => b.key)).toEqual([
      'credit:work-max',
      'rate_limit:openrouter',
      'errors:personal-pro/claude-opus-4-1',
    ]);
  });

  test('a daemon without protocol 2: one line saying so, exit 1', async () => {
    const daemon = await daemonWith({ protocol: null });
    const { code, stdout, stderr } = await printed(daemon.socketPath, false);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `routeplane top: cannot talk to the daemon at ${daemon.socketPath}: the daemon (routeplane 0.2.0) speaks control protocol 1; this monitor needs protocol 2: update the daemon\n`,
    );
  });

  test('no daemon: one line naming the socket path, exit 1', async () => {
    const daemon = await daemonWith({});
    await daemon.stop();
    const { code, stderr } = await printed(daemon.socketPath, false);
    expect(code).toBe(1);
    expect(stderr).toBe(`routeplane daemon is not running (no socket at ${daemon.socketPath})\n`);
  });
});
