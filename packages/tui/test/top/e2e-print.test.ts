import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Snapshot } from '@routeplane/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  askSonnet,
  assertBuilt,
  CLI,
  startFakeUpstream,
  startServe,
  writeDaemonConfig,
  type DaemonSetup,
  type FakeUpstream,
  type RunningServe,
} from './support/real-daemon.js';

/**
 * `routeplane top` when stdout is not a terminal (piped, as here): one
 * snapshot and exit 0; with no daemon: one line naming the socket, exit 1.
 * Runs the built CLI against a real daemon; needs `pnpm build` first.
 */
const run = promisify(execFile);

let upstream: FakeUpstream;
let setup: DaemonSetup;
let daemon: RunningServe;

beforeAll(async () => {
  assertBuilt();
  upstream = await startFakeUpstream();
  setup = writeDaemonConfig(upstream.url, 120);
  daemon = await startServe(setup);
  const response = await askSonnet(daemon.url); // max-a answers 402: its seat trips
  await response.arrayBuffer();
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  await upstream?.close();
  setup?.remove();
});

describe('top, not on a terminal', () => {
  test('prints one plain-text snapshot and exits 0', async () => {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'top', '--socket', setup.socketPath], {
      env: { ...process.env, NO_COLOR: '' },
    });
    expect(stderr).toBe('');
    expect(stdout).not.toContain('\x1b');
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^routeplane  ${daemon.url.replace(/[.]/g, '\\.')} · up \\d+s · daemon \\S+ pid \\d+$`));
    expect(lines[1]).toMatch(/^influence on · requests 1 · fail-overs \d+ · fail-open 0 · store memory$/);
    const chains = lines.indexOf('CHAINS (order a request tries now)');
    expect(lines[chains + 1]).toMatch(/^ sonnet ● healthy +team-b\/claude-sonnet-4-5$/);
    expect(lines[chains + 2]).toMatch(/^ +✗ credit +max-a\/claude-sonnet-4-5 +probe in (2m00|1m5\d)s$/);
    expect(stdout).toMatch(/\n max-a +✗ credit +probe in \S+ · 402 billing_error\n/);
  });

  test('--json prints the snapshot as one JSON line', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'top', '--json', '--socket', setup.socketPath]);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    const snapshot = JSON.parse(stdout) as Snapshot;
    expect(snapshot.routes[0]!.chain.map((t) => [t.seat, t.state, t.index])).toEqual([
      ['team-b', 'healthy', 1],
      ['max-a', 'tripped', 0],
    ]);
    // protocol v2: the seq it reflects, and the trip as one Breaker
    expect(snapshot.seq).toBeGreaterThanOrEqual(1);
    expect(snapshot.breakers.map((b) => [b.key, b.kind, b.phase])).toEqual([['credit:max-a', 'credit', 'open']]);
  });

  test('no daemon: one line naming the socket path, exit 1', async () => {
    const socket = join(setup.dir, 'nobody-here.sock');
    const failed = await run(process.execPath, [CLI, 'top', '--socket', socket]).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    expect(failed!.stdout).toBe('');
    expect(failed!.stderr.trimEnd().split('\n')).toEqual([`routeplane daemon is not running (no socket at ${socket})`]);
  });
});
