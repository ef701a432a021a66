import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, tempHomeFor } from '../../../daemon/test/helpers/cli-process.js';
import { writeClientConfig } from './client-config.js';

beforeAll(requireBuiltCli);

/** Every command that talks to the daemon. */
const CLIENT_COMMANDS = [['status'], ['status', '--json'], ['breakers', 'reset'], ['breakers', 'reset', '--seat', 'max-a'], ['logs', '-f']];

function expectOneLineNaming(result: { code: number | null; stdout: string; stderr: string }, path: string): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(/not running/);
}

// Every case has its own HOME and socket path and mostly waits for CLI processes to start: the
// cases run side by side.
describe.concurrent('a client command when no daemon is running', () => {
  it('says so in one line naming the socket given with --socket, and exits 1', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'run', 'control.sock');
    const results = await Promise.all(CLIENT_COMMANDS.map((command) => runCli([...command, '--socket', socket], isolatedEnv(dir), dir)));
    for (const result of results) {
      expectOneLineNaming(result, socket);
      expect(result.stderr).toBe(`routeplane daemon is not running (no socket at ${socket})\n`);
    }
  });

  it('names the socket the config points at', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'elsewhere', 'rp.sock');
    const config = writeClientConfig(dir, { socket });
    const results = await Promise.all(CLIENT_COMMANDS.map((command) => runCli([...command, '--config', config], isolatedEnv(dir), dir)));
    for (const result of results) expectOneLineNaming(result, socket);
  });

  it('names the default socket under XDG_RUNTIME_DIR (or HOME) when nothing else says where', async (test) => {
    const dir = tempHomeFor(test).dir;
    const runtime = join(dir, 'xdg-run');
    const [viaRuntime, viaHome] = await Promise.all([
      runCli(['status'], isolatedEnv(dir, { XDG_RUNTIME_DIR: runtime }), dir),
      runCli(['status'], isolatedEnv(dir), dir),
    ]);
    expectOneLineNaming(viaRuntime, join(runtime, 'routeplane', 'control.sock'));
    expectOneLineNaming(viaHome, join(dir, '.routeplane', 'control.sock'));
  });

  it('says so when a dead daemon left its socket file behind', async (test) => {
    const dir = tempHomeFor(test).dir;
    const socket = join(dir, 'control.sock');
    // a listener killed with SIGKILL leaves a socket file that refuses connections
    const child = spawn(
      process.execPath,
      ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const results = await Promise.all(CLIENT_COMMANDS.map((command) => runCli([...command, '--socket', socket], isolatedEnv(dir), dir)));
    for (const result of results) expectOneLineNaming(result, socket);
  });
});
