import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createControlApi } from '../../src/control/api.js';
import { startControlServer, type ControlServer } from '../../src/control/server.js';
import { controlOnlyContext } from './control-context.js';
import { LineClient } from './line-client.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rp-sock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(path: string): Promise<ControlServer> {
  const server = await startControlServer(path, createControlApi(controlOnlyContext()));
  cleanups.push(() => server.close());
  return server;
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('control socket file', () => {
  it('creates missing directories 0700 and the socket 0600', async () => {
    const base = tempDir();
    const path = join(base, 'nested', 'routeplane', 'control.sock');
    const server = await start(path);
    expect(server.path).toBe(path);
    expect(lstatSync(path).isSocket()).toBe(true);
    expect(mode(path)).toBe(0o600);
    expect(mode(join(base, 'nested', 'routeplane'))).toBe(0o700);
    expect(mode(join(base, 'nested'))).toBe(0o700);
    // the private directory the socket was bound in is gone
    expect(readdirSync(join(base, 'nested', 'routeplane'))).toEqual(['control.sock']);
    const client = await LineClient.connect(path);
    cleanups.push(() => client.close());
    expect((await client.request('hello')).ok).toBe(true);
  });

  it('leaves an existing directory as it is (only a missing one is created 0700)', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    await start(join(dir, 'control.sock'));
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'control.sock'))).toBe(0o600);
  });

  it('replaces a stale socket left by a dead daemon', async () => {
    const dir = tempDir();
    const path = join(dir, 'control.sock');
    await leaveStaleSocket(path);
    expect(existsSocket(path)).toBe(true);

    await start(path);
    const client = await LineClient.connect(path);
    cleanups.push(() => client.close());
    expect((await client.request('hello')).ok).toBe(true);
    expect(mode(path)).toBe(0o600);
  });

  it('refuses to start when a live daemon answers on the path, with one line naming it', async () => {
    const dir = tempDir();
    const path = join(dir, 'control.sock');
    await start(path);
    const second = startControlServer(path, createControlApi(controlOnlyContext()));
    await expect(second).rejects.toThrow(`another routeplane daemon is already listening on ${path}`);
    await second.catch((err: Error) => expect(err.message).not.toContain('\n'));
    // the first one is untouched
    const client = await LineClient.connect(path);
    cleanups.push(() => client.close());
    expect((await client.request('hello')).ok).toBe(true);
  });

  it('refuses to replace a file that is not a socket', async () => {
    const dir = tempDir();
    const path = join(dir, 'control.sock');
    writeFileSync(path, 'not a socket');
    await expect(startControlServer(path, createControlApi(controlOnlyContext()))).rejects.toThrow(/not a socket/);
    expect(lstatSync(path).isFile()).toBe(true);
  });

  it('close() ends subscribers at once and removes the socket file', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'run'));
    const path = join(dir, 'run', 'control.sock');
    const server = await startControlServer(path, createControlApi(controlOnlyContext()));
    const subscriber = await LineClient.connect(path);
    cleanups.push(() => subscriber.close());
    subscriber.socket.pause(); // a subscriber that never reads must not hold up close()
    subscriber.write('{"id":1,"cmd":"subscribe"}\n');
    const idle = await LineClient.connect(path);
    cleanups.push(() => idle.close());
    expect((await idle.request('hello')).ok).toBe(true);
    await server.close(); // resolves although the subscriber never read a byte
    subscriber.socket.resume(); // reading now, it finds the stream over
    await Promise.all([idle.ended, subscriber.ended]);
    expect(existsSocket(path)).toBe(false);
  });
});

/** What a daemon killed with SIGKILL leaves behind: a socket file nobody listens on. */
async function leaveStaleSocket(path: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

function existsSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}
