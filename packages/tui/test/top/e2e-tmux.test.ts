import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
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
import { TmuxSession } from './support/tmux.js';

/**
 * The built CLI in a real terminal (tmux 100×30) against a real daemon whose
 * first seat answers 402. Needs `pnpm build` first. One session walks the
 * whole story in order: trip, reset, daemon restart, quit.
 */
let upstream: FakeUpstream;
let setup: DaemonSetup;
let daemon: RunningServe | null = null;
let tmux: TmuxSession | null = null;

beforeAll(async () => {
  assertBuilt();
  upstream = await startFakeUpstream();
  setup = writeDaemonConfig(upstream.url, 120);
  daemon = await startServe(setup);
  tmux = new TmuxSession(join(setup.dir, 'tmux.sock'), 100, 30);
  tmux.start({ TERM: 'xterm-256color', LANG: 'C.UTF-8' });
  await tmux.waitFor('e2e$');
}, 60_000);

afterAll(async () => {
  tmux?.kill();
  await daemon?.stop();
  await upstream?.close();
  setup?.remove();
});

function screen(): TmuxSession {
  if (!tmux) throw new Error('tmux did not start');
  return tmux;
}

/** The chains panel rows for route sonnet: the route's row and the one after it. */
function sonnetChain(text: string): string[] {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => /^.sonnet /.test(l));
  return at === -1 ? [] : lines.slice(at, at + 2);
}

test('a 402 moves the seat to the back with a countdown; R y clears it (screen and snapshot agree)', async () => {
  screen().type(`node ${CLI} top --socket ${setup.socketPath}`, true);
  const live = await screen().waitFor('● live');
  expect(sonnetChain(live)[0]).toMatch(/● healthy +max-a\/claude-sonnet-4-5/);

  const response = await askSonnet(daemon!.url);
  expect(response.status).toBe(200);
  expect(response.headers.get('x-routeplane-target')).toBe('team-b/claude-sonnet-4-5');
  await response.arrayBuffer();

  const tripped = await screen().waitFor((s) => /✗ credit +max-a\/claude-sonnet-4-5 +probe in (2m00|1m5\d)s/.test(sonnetChain(s)[1] ?? ''));
  const [first, second] = sonnetChain(tripped);
  expect(first).toMatch(/● healthy +team-b\/claude-sonnet-4-5/);
  expect(second).toMatch(/✗ credit +max-a\/claude-sonnet-4-5 +probe in/);
  expect(tripped).toMatch(/max-a +✗ credit +probe in \S+ · refused 0/);
  // the decision is emitted when the request ends, just after the trip
  await screen().waitFor('max-a 402 → team-b/claude-sonnet-4-5 ok');

  screen().key('R');
  await screen().waitFor('Reset EVERY breaker on every seat?');
  screen().key('y');
  const cleared = await screen().waitFor('✓ reset every breaker: cleared 1 breaker(s)');
  expect(cleared).not.toContain('CONFIRM');
  const back = await screen().waitFor((s) => /● healthy +max-a\/claude-sonnet-4-5/.test(sonnetChain(s)[0] ?? ''));
  expect(back).toMatch(/^ max-a +● healthy/m);
  expect(back).not.toContain('✗');

  const client = await connectControl(setup.socketPath);
  try {
    const snapshot = await client.request('snapshot');
    expect(snapshot.routes[0]!.chain.map((t) => [t.seat, t.state])).toEqual([
      ['max-a', 'healthy'],
      ['team-b', 'healthy'],
    ]);
    expect(snapshot.seats.find((s) => s.id === 'max-a')!.credit).toBeNull();
    expect(snapshot.breakers).toEqual([]);
  } finally {
    client.close();
  }
});

test('killing and restarting the daemon: disconnected, then live again within 3 s without a key press', async () => {
  await screen().waitFor('● live');
  await daemon!.stop();
  const down = await screen().waitFor('✗ disconnected — ');
  expect(down).toContain('max-a/claude-sonnet-4-5'); // the last state stays on screen
  daemon = await startServe(setup);
  const restartedAt = daemon.listeningAt;
  const live = await screen().waitFor(/● live/, 10_000);
  const tookMs = Date.now() - restartedAt;
  expect(live).not.toContain('disconnected');
  expect(tookMs).toBeLessThanOrEqual(3000);
  expect(live).toMatch(/up \ds /); // a fresh snapshot of the new daemon
});

test('q quits, restores the screen and gives the shell prompt back (exit 0)', async () => {
  screen().key('q');
  const after = await screen().waitFor((s) => !s.includes('CHAINS') && /e2e\$ *$/m.test(s));
  expect(after).not.toContain('DECISIONS');
  screen().type('echo "top exited $?"', true);
  await screen().waitFor('top exited 0');
});
