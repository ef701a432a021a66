import { existsSync, statSync, writeFileSync } from 'node:fs';
import { freePort, refused } from '../../../daemon/test/helpers/loopback-port.js';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { connectControl } from '../../src/client/control-client.js';
import { isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHomeFor, type CliProcess } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

const KEY = 'sk-serve-test-2f9c61d0e4';

function writeServeConfig(dir: string, opts: { socket: string; listen?: string; extra?: string }): string {
  const file = join(dir, 'routeplane.yaml');
  writeFileSync(
    file,
    [
      'server:',
      `  listen: "${opts.listen ?? '127.0.0.1:0'}"`,
      'control:',
      `  socket: "${opts.socket}"`,
      'decision_log:',
      `  path: "${join(dir, 'decisions.ndjson')}"`,
      'seats:',
      '  - id: max-a',
      '    provider: anthropic',
      '    base_url: http://127.0.0.1:9',
      '    api_key_env: RP_SERVE_KEY',
      'routes:',
      '  - model: sonnet',
      '    chain:',
      '      - { seat: max-a, model: sonnet-x }',
      'influence:',
      '  enabled: true',
      opts.extra ?? '',
    ].join('\n'),
  );
  return file;
}

/** `routeplane serve` for one test, killed (if still running) when the test ends. */
function serve(test: TestContext, dir: string, config: string): CliProcess {
  const p = spawnCli(['serve', '--config', config], isolatedEnv(dir, { RP_SERVE_KEY: KEY }), dir);
  test.onTestFinished(() => p.kill());
  return p;
}

// Each case has its own HOME, socket and daemons: the cases run side by side.
describe.concurrent('routeplane serve', () => {
  it('refuses a config with an unknown key: exit 2, the key path named, nothing listening', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'run', 'control.sock');
    const port = await freePort();
    const config = writeServeConfig(dir, { socket, listen: `127.0.0.1:${port}`, extra: '  trip_treshold: 5' });
    const result = await serve(test, dir, config).exited;
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${config.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: influence\\.trip_treshold: unknown key`));
    expect(existsSync(socket)).toBe(false);
    expect(await refused(port)).toBe(true);
  });

  it('prints the URL and socket on its first line, keeps the socket private, and exits 0 on SIGTERM', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'run', 'routeplane', 'control.sock');
    const daemon = serve(test, dir, writeServeConfig(dir, { socket }));
    const listening = await daemon.listening();
    expect(listening.socket).toBe(socket);
    expect((await fetch(`${listening.url}/healthz`)).status).toBe(200);

    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'run', 'routeplane')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'run')).mode & 0o777).toBe(0o700);

    const client = await connectControl(socket);
    const hello = await client.request('hello');
    expect(hello.http_url).toBe(listening.url);
    expect(hello.pid).toBe(daemon.child.pid);
    client.close();

    daemon.child.kill('SIGTERM');
    const result = await daemon.exited;
    expect(result.code).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('refuses to start on the socket of a live daemon, in one line; replaces the socket of a killed one', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'control.sock');
    const config = writeServeConfig(dir, { socket });
    const first = serve(test, dir, config);
    await first.listening();

    const second = await serve(test, dir, config).exited;
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(`routeplane: cannot start: another routeplane daemon is already listening on ${socket}\n`);
    const status = await runCli(['status', '--json', '--socket', socket], isolatedEnv(dir), dir);
    expect(status.code).toBe(0); // the first one is untouched

    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(socket)).toBe(true); // left behind, stale

    const third = serve(test, dir, config);
    await third.listening();
    const client = await connectControl(socket);
    expect((await client.request('hello')).pid).toBe(third.child.pid);
    client.close();
    third.child.kill('SIGINT');
    expect((await third.exited).code).toBe(0);
  });
});
