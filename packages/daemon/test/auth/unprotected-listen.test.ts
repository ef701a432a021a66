import { existsSync } from 'node:fs';
import { freePort, refused } from '../helpers/loopback-port.js';
import { join } from 'node:path';
import { validateConfig, type Config } from '@routeplane/shared';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/start.js';
import { isolatedEnv, requireBuiltCli, spawnCli, tempHome, writeLines } from '../helpers/cli-process.js';

/**
 * A daemon listening beyond loopback without `server.auth_token_env` refuses
 * to start — from the config loader (`routeplane serve`, exit 2) and from
 * `startDaemon` itself — and so does one whose token variable is unset or
 * empty. (With a token, what agents get: agent-token.test.ts.)
 *
 * The control socket being reachable by its owner alone (0600 in a 0700
 * directory) is proven by packages/daemon/test/control/socket-file.test.ts
 * and packages/tui/test/cli/serve.test.ts; not repeated here.
 */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function home(): string {
  const h = tempHome();
  cleanups.push(h.remove);
  return h.dir;
}

const KEY_ENV = { RP_SEC_KEY: 'sk-sec-test-0b7e2c9d41' };

function loopbackConfig(): Config {
  const result = validateConfig(
    {
      seats: [{ id: 'a', provider: 'openai', base_url: 'http://127.0.0.1:9', api_key_env: 'RP_SEC_KEY' }],
      routes: [{ model: 'gpt', chain: [{ seat: 'a', model: 'm' }] }],
    },
    'inline',
    KEY_ENV,
  );
  if (!result.ok) throw new Error('fixture config invalid');
  return result.config;
}

const NON_LOOPBACK = ['0.0.0.0:0', '[::]:0', '192.0.2.10:0', '10.1.2.3:0', 'localhost.example.com:0', '127.0.0.1.nip.io:0'];

describe('a non-loopback listen without auth_token_env refuses to start', () => {
  it.each(NON_LOOPBACK)('startDaemon with listen %s given as an override: refused before binding anything', async (listen) => {
    const dir = home();
    const socketPath = join(dir, 'run', 'control.sock');
    const started = startDaemon(loopbackConfig(), { env: KEY_ENV, listen, socketPath, decisionLogPath: join(dir, 'log', 'd.ndjson') });
    await expect(started).rejects.toThrow(`server.auth_token_env: required when listen (${listen}) is not a loopback address`);
    expect(existsSync(join(dir, 'run'))).toBe(false);
    expect(existsSync(join(dir, 'log'))).toBe(false);
  });

  it('startDaemon with a hand-built config that skipped validation: refused as well', async () => {
    const dir = home();
    const base = loopbackConfig();
    const config: Config = { ...base, server: { ...base.server, listen: '0.0.0.0:0' } };
    await expect(startDaemon(config, { env: KEY_ENV, socketPath: join(dir, 'c.sock'), decisionLogPath: false })).rejects.toThrow(
      'server.auth_token_env: required when listen (0.0.0.0:0) is not a loopback address',
    );
    expect(existsSync(join(dir, 'c.sock'))).toBe(false);
  });

  it.each(['localhost:0', '127.0.0.2:0'])('a loopback listen (%s) needs no token', async (listen) => {
    const dir = home();
    const daemon = await startDaemon(loopbackConfig(), { env: KEY_ENV, listen, socketPath: join(dir, 'c.sock'), decisionLogPath: false });
    cleanups.push(() => daemon.close(1_000));
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  });
});

describe('routeplane serve refuses an unprotected or broken token config (exit 2, one line naming the key)', () => {
  beforeAll(requireBuiltCli);

  function serveConfig(dir: string, server: string[]): string {
    return writeLines(join(dir, 'routeplane.yaml'), [
      'server:',
      ...server,
      'control:',
      `  socket: "${join(dir, 'run', 'control.sock')}"`,
      'decision_log:',
      `  path: "${join(dir, 'decisions.ndjson')}"`,
      'seats:',
      '  - id: a',
      '    provider: openai',
      '    base_url: http://127.0.0.1:9',
      '    api_key_env: RP_SEC_KEY',
      'routes:',
      '  - model: gpt',
      '    chain:',
      '      - { seat: a, model: m }',
    ]);
  }

  async function expectConfigError(dir: string, file: string, env: Record<string, string>, message: string, port?: number): Promise<void> {
    const cli = spawnCli(['serve', '--config', file], isolatedEnv(dir, { ...KEY_ENV, ...env }), dir);
    cleanups.push(() => cli.kill());
    const exit = await cli.exited;
    expect(exit.code).toBe(2);
    expect(cli.stdout).toBe('');
    const lines = cli.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^${escapeRegExp(file)}: server\\.auth_token_env: ${escapeRegExp(message)}( \\(line \\d+\\))?$`));
    expect(existsSync(join(dir, 'run', 'control.sock'))).toBe(false);
    if (port !== undefined) expect(await refused(port)).toBe(true);
    for (const value of Object.values(env)) if (value !== '') expect(cli.stderr).not.toContain(value);
  }

  it('listen 0.0.0.0 without auth_token_env', async () => {
    const dir = home();
    const port = await freePort();
    const file = serveConfig(dir, [`  listen: "0.0.0.0:${port}"`]);
    await expectConfigError(dir, file, {}, `required when listen (0.0.0.0:${port}) is not a loopback address`, port);
  });

  it('listen on an IPv6 wildcard without auth_token_env', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "[::]:4141"']);
    await expectConfigError(dir, file, {}, 'required when listen ([::]:4141) is not a loopback address');
  });

  it('auth_token_env naming a variable that is not set', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "127.0.0.1:0"', '  auth_token_env: RP_SEC_TOKEN_UNSET']);
    await expectConfigError(dir, file, {}, 'environment variable RP_SEC_TOKEN_UNSET is not set');
  });

  it('auth_token_env naming a variable that is empty', async () => {
    const dir = home();
    const file = serveConfig(dir, ['  listen: "0.0.0.0:4141"', '  auth_token_env: RP_SEC_TOKEN_EMPTY']);
    await expectConfigError(dir, file, { RP_SEC_TOKEN_EMPTY: '' }, 'environment variable RP_SEC_TOKEN_EMPTY is not set');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
