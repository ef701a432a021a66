import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, requireBuiltCli, runCli, spawnCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('relative paths in the config are relative to its directory', () => {
  it('serve started in one directory and status, logs and breakers in others find the same socket and log', async () => {
    const h = tempHome();
    cleanups.push(h.remove);
    const confDir = join(h.dir, 'conf');
    for (const dir of ['conf', 'a', 'b']) mkdirSync(join(h.dir, dir));
    writeFileSync(
      join(confDir, 'routeplane.yaml'),
      [
        'server: { listen: "127.0.0.1:0" }',
        'control: { socket: run/control.sock }',
        'decision_log: { path: logs/decisions.ndjson }',
        'seats: [{ id: max-a, provider: anthropic, base_url: "http://127.0.0.1:9", api_key_env: RP_REL_KEY }]',
        'routes: [{ model: sonnet, chain: [{ seat: max-a, model: m }] }]',
        'influence: { enabled: true }',
      ].join('\n'),
    );
    const env = isolatedEnv(h.dir, { RP_REL_KEY: 'sk-rel' });
    const serve = spawnCli(['serve', '--config', '../conf/routeplane.yaml'], env, join(h.dir, 'a'));
    cleanups.push(async () => {
      if (serve.child.exitCode === null) {
        serve.child.kill('SIGTERM');
        await serve.exited;
      }
    });
    await serve.until((p) => p.stdoutLines.length > 0, 'the listening line');
    const socket = join(confDir, 'run', 'control.sock');
    expect(serve.stdoutLines[0]).toMatch(new RegExp(`\\(control: ${socket.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)$`));
    expect(existsSync(socket)).toBe(true);

    // from another directory, through the config (never --socket)
    const status = await runCli(['status', '--config', '../conf/routeplane.yaml'], env, join(h.dir, 'b'));
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    const reset = await runCli(['breakers', 'reset', '--config', join(confDir, 'routeplane.yaml')], env, join(h.dir, 'b'));
    expect(reset.code).toBe(0);

    // a request makes a decision; logs from yet another directory reads the same file
    const url = /listening on (\S+)/.exec(serve.stdoutLines[0]!)![1]!;
    const answer = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'nope' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(404);
    await expect.poll(() => existsSync(join(confDir, 'logs', 'decisions.ndjson'))).toBe(true);
    const logs = await runCli(['logs', '--json', '--config', '../conf/routeplane.yaml'], env, join(h.dir, 'b'));
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('"route":"nope"');
  });
});
