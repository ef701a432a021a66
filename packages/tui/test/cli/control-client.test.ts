import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamedEvent } from '@routeplane/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { connectControl, ControlRequestError, DaemonNotRunningError } from '../../src/client/control-client.js';
import { ClientConfigError, resolveSocketPath } from '../../src/client/socket-path.js';
import { message, startDaemonWithUpstreams, type TrippedDaemon } from '../../../daemon/test/control/tripped-daemon.js';
import { writeClientConfig } from './client-config.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function daemon(): Promise<TrippedDaemon> {
  const d = await startDaemonWithUpstreams(true);
  cleanups.push(() => d.close());
  return d;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rp-client-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('control client', () => {
  it('answers requests by id, typed, and turns error replies into ControlRequestError with the code', async () => {
    const d = await daemon();
    const client = await connectControl(d.t.daemon.socketPath);
    cleanups.push(() => client.close());
    const [hello, status] = await Promise.all([client.request('hello'), client.request('status')]);
    expect(hello.http_url).toBe(d.t.url);
    expect(status.open).toEqual([]);
    const failure = await client.request('reset', { seat: 'nope' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ControlRequestError);
    expect((failure as ControlRequestError).code).toBe('unknown_seat');
  });

  it('subscribe resolves after the reply, then hands over every event; onClose fires once when the daemon goes', async () => {
    const d = await daemon();
    const client = await connectControl(d.t.daemon.socketPath);
    const events: StreamedEvent[] = [];
    let decided: () => void;
    const decision = new Promise<void>((resolve) => (decided = resolve));
    await client.subscribe((event) => {
      events.push(event);
      if (event.type === 'decision') decided();
    });
    await (await d.t.post('/v1/messages', message('sonnet'))).arrayBuffer();
    await decision;
    expect(events.map((e) => e.type)).toContain('breaker');

    const closes: Array<Error | null> = [];
    const closed = new Promise<void>((resolve) => client.onClose((error) => (closes.push(error), resolve())));
    await d.t.daemon.close();
    await closed;
    expect(closes).toEqual([null]);
    await expect(client.request('hello')).rejects.toThrow(/closed/);
  });

  it('says the daemon is not running, naming the path, when no socket is there', async () => {
    const dir = tempDir();
    const missing = join(dir, 'missing.sock');
    const error = await connectControl(missing).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(DaemonNotRunningError);
    expect((error as DaemonNotRunningError).socketPath).toBe(missing);
    expect((error as Error).message).toBe(`routeplane daemon is not running (no socket at ${missing})`);
  });

  it('gives up on a reply that never comes, in its own words', async () => {
    const dir = tempDir();
    const path = join(dir, 'silent.sock');
    const silent = createServer((socket) => socket.resume()); // reads, and says nothing
    await new Promise<void>((resolve) => silent.listen(path, resolve));
    cleanups.push(() => new Promise((resolve) => silent.close(resolve)));
    const client = await connectControl(path, { timeoutMs: 300 });
    cleanups.push(() => client.close());
    await expect(client.request('hello')).rejects.toThrow('routeplane daemon did not answer "hello" within 300 ms');
  });
});

describe('resolveSocketPath', () => {
  it('takes --socket first, then the config, then the default location', () => {
    const dir = tempDir();
    const env = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'cfg') };
    const config = writeClientConfig(dir, { socket: join(dir, 'from-config.sock') });
    expect(resolveSocketPath({ socket: 'given.sock', config }, env, dir)).toBe(join(dir, 'given.sock'));
    // the config's seats name key variables this environment lacks: a client does not need them
    expect(resolveSocketPath({ config }, env, dir)).toBe(join(dir, 'from-config.sock'));
    expect(resolveSocketPath({}, env, join(dir, 'cfg'))).toBe(join(dir, '.routeplane', 'control.sock'));
    expect(resolveSocketPath({}, { ...env, XDG_RUNTIME_DIR: '/run/user/7' }, join(dir, 'cfg'))).toBe('/run/user/7/routeplane/control.sock');
    // discovered ./routeplane.yaml counts as "a config is found"
    expect(resolveSocketPath({}, env, dir)).toBe(join(dir, 'from-config.sock'));
  });

  it('rejects a named config that is missing or invalid, instead of guessing', () => {
    const dir = tempDir();
    expect(() => resolveSocketPath({ config: join(dir, 'nope.yaml') }, { HOME: dir }, dir)).toThrow(ClientConfigError);
    const typo = join(dir, 'typo.yaml');
    writeFileSync(typo, 'control:\n  sockt: /tmp/x.sock\nseats: []\nroutes: []\n');
    expect(() => resolveSocketPath({ config: typo }, { HOME: dir }, dir)).toThrow(/control\.sockt: unknown key/);
  });
});
