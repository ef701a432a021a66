/**
 * `routeplane serve` as a real process over a config written for the test,
 * with the control socket at hand — the state-file tests' only use of the
 * CLI harness (helpers/cli-process.ts), kept to starting, asking and
 * signalling.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { controlLines } from '../helpers/control-lines.js';
import { type CliProcess, isolatedEnv, spawnCli, writeLines } from '../helpers/cli-process.js';

export interface ServeSeat {
  id: string;
  provider: 'anthropic' | 'openai';
  base_url: string;
}

export interface ServeConfig {
  seats: ServeSeat[];
  routes: Array<{ model: string; chain: Array<{ seat: string; model: string }> }>;
  /** the `influence:` block, flat keys (numbers and strings) */
  influence: Record<string, number | string | boolean>;
}

/** The key of seat `id` in the daemon's environment (fake upstreams tell seats apart by it). */
export const seatKey = (id: string): string => `sk-state-${id}`;
const envName = (id: string): string => `RP_STATE_KEY_${id.toUpperCase()}`;

export function writeConfig(dir: string, cfg: ServeConfig): string {
  const lines = [
    'server:',
    '  listen: "127.0.0.1:0"',
    'control:',
    `  socket: "${join(dir, 'control.sock')}"`,
    'decision_log:',
    '  path: false',
    'seats:',
    ...cfg.seats.flatMap((s) => [
      `  - id: ${s.id}`,
      `    provider: ${s.provider}`,
      `    base_url: ${s.base_url}`,
      `    api_key_env: ${envName(s.id)}`,
    ]),
    'routes:',
    ...cfg.routes.flatMap((r) => [
      `  - model: ${r.model}`,
      '    chain:',
      ...r.chain.map((t) => `      - { seat: ${t.seat}, model: ${t.model} }`),
    ]),
    'influence:',
    ...Object.entries(cfg.influence).map(([k, v]) => `  ${k}: ${typeof v === 'string' ? JSON.stringify(v) : v}`),
  ];
  return writeLines(join(dir, 'routeplane.yaml'), lines);
}

export interface Served {
  cli: CliProcess;
  url: string;
  socket: string;
  /** one control command's result (fails the test on an error reply) */
  // biome-ignore lint/suspicious/noExplicitAny: loosely typed for assertions
  command(cmd: string): Promise<any>;
}

/** Starts `serve` and waits for its listening line, which must be the first line on stdout. */
export async function serve(home: string, config: string, seats: readonly ServeSeat[]): Promise<Served> {
  const env = Object.fromEntries(seats.map((s) => [envName(s.id), seatKey(s.id)]));
  const cli = spawnCli(['serve', '--config', config], isolatedEnv(home, env), home);
  const { url, socket } = await cli.listening();
  return {
    cli,
    url,
    socket,
    async command(cmd) {
      const [line] = await controlLines(socket, [{ cmd }]);
      const reply = JSON.parse(line!);
      expect(reply.ok, line).toBe(true);
      return reply.result;
    },
  };
}

/**
 * `serve`'s stderr lines once it has said what it restored: the start lines
 * (config, socket, store …) end with `restored N breaker(s) from PATH`;
 * a state file set aside is said before them.
 */
export async function startLines(served: Served): Promise<string[]> {
  await served.cli.until(() => /^restored \d+ breaker\(s\) from .*\n/m.test(served.cli.stderr), 'the restored line');
  return served.cli.stderr.split('\n').filter((l) => l !== '');
}

/** What `serve` said about the state file at start: the restored line, and any other line naming it. */
export async function stateFileLines(served: Served): Promise<string[]> {
  return (await startLines(served)).filter((l) => l.startsWith('restored ') || l.includes('state file'));
}

/** SIGTERM, and the exit it must make: 0. */
export async function stop(served: Served): Promise<void> {
  served.cli.child.kill('SIGTERM');
  expect(await served.cli.exited).toMatchObject({ code: 0, signal: null });
}
