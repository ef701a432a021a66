import { existsSync, readFileSync, watch } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { ControlledStream, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { readRest, readUntil } from '../helpers/read-stream.js';
import { isolatedEnv, requireBuiltCli, spawnCli, tempHomeFor, writeLines, type CliProcess } from '../helpers/cli-process.js';
import { within } from '../helpers/bounded-wait.js';

/**
 * Graceful shutdown of `routeplane serve` (issue 7, Acceptance 4), on the
 * built CLI as a real process: SIGTERM/SIGINT stop new connections, let the
 * request in flight finish (grace 10 s), close idle agent connections and
 * control subscribers at once, remove the socket file and exit 0.
 */

beforeAll(requireBuiltCli);

const KEY = 'sk-shutdown-test-6c1d0e9f2a';

interface Served {
  cli: CliProcess;
  url: string;
  socket: string;
  decisionLog: string;
}

/** `routeplane serve` in front of `up`, in a HOME of its own; killed and removed when `test` ends. */
async function serve(test: TestContext, up: FakeUpstream): Promise<Served> {
  const h = tempHomeFor(test);
  const socket = join(h.dir, 'run', 'control.sock');
  const decisionLog = join(h.dir, 'decisions.ndjson');
  const config = writeLines(join(h.dir, 'routeplane.yaml'), [
    'server:',
    '  listen: "127.0.0.1:0"',
    'control:',
    `  socket: "${socket}"`,
    'decision_log:',
    `  path: "${decisionLog}"`,
    'seats:',
    '  - id: a',
    '    provider: openai',
    `    base_url: ${up.url}`,
    '    api_key_env: RP_SHUT_KEY',
    'routes:',
    '  - model: gpt',
    '    chain:',
    '      - { seat: a, model: gpt-real }',
  ]);
  const cli = spawnCli(['serve', '--config', config], isolatedEnv(h.dir, { RP_SHUT_KEY: KEY }), h.dir);
  test.onTestFinished(() => cli.kill());
  const listening = await cli.listening();
  expect(listening.socket).toBe(socket);
  return { cli, url: listening.url, socket, decisionLog };
}

/** Resolves once `path` no longer exists, woken by directory events (bounded). */
async function gone(path: string, what: string): Promise<void> {
  const watcher = watch(dirname(path));
  try {
    const removed = new Promise<void>((resolve) => {
      const check = (): void => {
        if (!existsSync(path)) resolve();
      };
      watcher.on('change', check);
      check();
    });
    await within(removed, 15_000, what);
  } finally {
    watcher.close();
  }
}

function connects(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The listener is closed: a connection attempt is refused. Polled, since closing follows the
 * socket removal by a few ticks; with the test's own expect, as the cases run side by side.
 */
async function refusesConnections(test: TestContext, url: string): Promise<void> {
  await test.expect
    .poll(() => connects(url), { timeout: 10_000, interval: 50, message: 'the daemon still accepts connections 10 s after SIGTERM' })
    .toBe(false);
}

// Each case has its own upstream, HOME and daemon, and mostly waits for the daemon to start and
// stop: the cases run side by side.
describe.concurrent('graceful shutdown of routeplane serve', () => {
  it('SIGTERM with a stream in flight: no new connections, the stream completes, the socket file goes, exit 0', async (test) => {
    const stream = new ControlledStream();
    const up = await startFakeUpstream(stream.behaviour);
    test.onTestFinished(() => up.close());
    const { cli, url, socket, decisionLog } = await serve(test, up);

    const pending = fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt', stream: true, messages: [] }),
    });
    await stream.started;
    // the daemon sends the status line with the first chunk, so fetch resolves only now
    stream.write('data: {"n":1}\n\n');
    const res = await pending;
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    expect(await readUntil(reader, '"n":1')).toBe('data: {"n":1}\n\n');

    cli.child.kill('SIGTERM');
    await cli.until(() => cli.stderr.includes('SIGTERM received, shutting down'), 'the shutdown line');
    await gone(socket, 'the control socket file is removed');
    await refusesConnections(test, url);
    expect(cli.child.exitCode).toBeNull(); // still draining: the stream is not over

    stream.write('data: {"n":2}\n\n');
    expect(await readUntil(reader, '"n":2')).toBe('data: {"n":2}\n\n');
    stream.end('data: [DONE]\n\n');
    expect(await readRest(reader)).toBe('data: [DONE]\n\n');
    const streamEndedAt = Date.now();

    const exit = await within(cli.exited, 15_000, 'the daemon exits once the stream is done');
    expect(exit).toMatchObject({ code: 0, signal: null });
    // once the stream is over nothing is in flight: the exit follows at once, the agent's idle
    // keep-alive connection does not hold it until the 10 s grace runs out
    expect(Date.now() - streamEndedAt).toBeLessThan(5_000);
    expect(existsSync(socket)).toBe(false);
    // the decision of the drained request made it to the log before exit
    const lines = readFileSync(decisionLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'decision', route: 'gpt', status: 200, served_by: 'a/gpt-real', stream: true });
    expect(cli.stdout + cli.stderr).not.toContain(KEY);
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    '%s with nothing in flight: idle agent connections and subscribers are closed at once, exit 0 well within 5 s',
    async (signal, test) => {
      const up = await startFakeUpstream();
      test.onTestFinished(() => up.close());
      const { cli, url, socket } = await serve(test, up);

      // an idle keep-alive agent connection, and a control subscriber
      const { hostname, port } = new URL(url);
      const agent = createConnection(Number(port), hostname);
      const agentClosed = new Promise<void>((resolve) => agent.once('close', () => resolve()));
      agent.on('error', () => {});
      agent.write(`GET /healthz HTTP/1.1\r\nhost: ${hostname}\r\nconnection: keep-alive\r\n\r\n`);
      await new Promise<void>((resolve) => agent.once('data', () => resolve()));
      const subscriber = createConnection(socket);
      subscriber.on('error', () => {});
      const subscriberClosed = new Promise<void>((resolve) => subscriber.once('close', () => resolve()));
      subscriber.write('{"id":1,"cmd":"subscribe"}\n');
      await new Promise<void>((resolve) => subscriber.once('data', () => resolve()));

      const sentAt = Date.now();
      cli.child.kill(signal);
      const exit = await within(cli.exited, 15_000, 'the daemon exits');
      const tookMs = Date.now() - sentAt;
      expect(exit).toMatchObject({ code: 0, signal: null });
      await within(Promise.all([agentClosed, subscriberClosed]), 5_000, 'the idle connections were closed');
      expect(existsSync(socket)).toBe(false);
      // the spec's bound with nothing in flight; the 10 s grace was not waited out
      expect(tookMs).toBeLessThan(5_000);
    },
  );
});
