/**
 * Readiness: `/healthz` answers only once the control
 * socket accepts, so a script that waits for /healthz can run `routeplane
 * status` at once. Each start here races a /healthz poller against the
 * daemon coming up, and connects to the socket the moment it first answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { freePort } from '../helpers/loopback-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '@routeplane/shared';
import { describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/start.js';
import { LineClient } from '../control/line-client.js';

/** Polls /healthz until it first answers 200 (a refused connection is just "not yet"). */
async function firstHealthy(url: string, give: Promise<unknown>): Promise<void> {
  let failed: unknown = null;
  give.catch((err) => {
    failed = err;
  });
  for (;;) {
    if (failed !== null) throw failed;
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
  }
}

describe('readiness: /healthz answers only once the control socket accepts', () => {
  it('100 starts: a control connection made the moment /healthz first answers succeeds every time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rp-ready-'));
    try {
      const env = { KEY: 'sk-ready' };
      const loaded = validateConfig(
        {
          seats: [{ id: 'a', provider: 'openai', base_url: 'http://127.0.0.1:9', api_key_env: 'KEY' }],
          routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'gpt-real' }] }],
          decision_log: { path: false },
        },
        'ready.yaml',
        env,
      );
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
      let answered = 0;
      for (let i = 0; i < 100; i++) {
        const port = await freePort();
        const socketPath = join(dir, `c${i}.sock`);
        const starting = startDaemon(loaded.config, { env, listen: `127.0.0.1:${port}`, socketPath, decisionLogPath: false });
        await firstHealthy(`http://127.0.0.1:${port}`, starting);
        const client = await LineClient.connect(socketPath);
        const hello = await client.request('hello');
        expect(hello).toMatchObject({ ok: true, result: { protocol: 2, http_url: `http://127.0.0.1:${port}` } });
        answered++;
        client.close();
        await (await starting).close(1000);
      }
      expect(answered).toBe(100);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a command sent before the HTTP port is open is answered once it is, with the bound URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rp-ready-'));
    try {
      const env = { KEY: 'sk-ready' };
      const loaded = validateConfig(
        {
          seats: [{ id: 'a', provider: 'openai', base_url: 'http://127.0.0.1:9', api_key_env: 'KEY' }],
          routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'gpt-real' }] }],
        },
        'ready.yaml',
        env,
      );
      if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues));
      const socketPath = join(dir, 'c.sock');
      const starting = startDaemon(loaded.config, { env, listen: '127.0.0.1:0', socketPath, decisionLogPath: false });
      // connect as soon as the socket file is there: possibly before the HTTP port is open
      let client: LineClient | null = null;
      while (client === null) client = await LineClient.connect(socketPath).catch(() => null);
      const hello = await client.request('hello');
      const daemon = await starting;
      expect(hello.result.http_url).toBe(daemon.url);
      expect(hello.result.http_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      client.close();
      await daemon.close(1000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
