import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import { isolatedEnv, requireBuiltCli, runCli, tempHome } from '../../../daemon/test/helpers/cli-process.js';

beforeAll(requireBuiltCli);

const h = tempHome();
afterAll(h.remove);
const env = isolatedEnv(h.dir);
const socket = join(h.dir, 'no-daemon.sock');

/** Every command that runs something, as the words that name it: `status`, `breakers reset`, … */
function leafCommands(command: Command, path: string[] = []): string[][] {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  if (subs.length === 0) return [path];
  return subs.flatMap((sub) => leafCommands(sub, [...path, sub.name()]));
}
function groupCommands(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) =>
    sub.commands.length > 0 ? [[...path, sub.name()], ...groupCommands(sub, [...path, sub.name()])] : [],
  );
}

const program = buildProgram();

// Each case is one CLI process with its own output; none writes to the shared HOME. Run one after
// another they spent most of their time waiting for node to start, so they run side by side.
describe.concurrent('exit codes: 0 success, 1 runtime failure, 2 usage and config errors — for every command', () => {
  it('routeplane with no command prints the help on stdout and exits 0', async () => {
    const result = await runCli([], env, h.dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: routeplane \[options\] \[command\]/);
    for (const [name] of leafCommands(program)) expect(result.stdout).toContain(`  ${name}`);
  });

  it.each([[['--help']], [['help']], [['--version']], [['help', 'status']], [['status', '--help']], [['config', 'init', '--help']]])(
    '%j exits 0',
    async (args) => {
      const result = await runCli(args, env, h.dir);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
    },
  );

  it.each(leafCommands(program).map((path) => [path.join(' '), path]))(
    '%s with an unknown option exits 2 in one line',
    async (_name, path) => {
      const result = await runCli([...path, '--no-such-flag'], env, h.dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("error: unknown option '--no-such-flag'\n");
    },
  );

  it.each(groupCommands(program).map((path) => [path.join(' '), path]))(
    '%s without its subcommand exits 2 with the help',
    async (_name, path) => {
      const result = await runCli(path, env, h.dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^Usage: routeplane /);
    },
  );

  it.each([
    [['no-such-command']],
    [['demo', '--agents', 'x']],
    [['demo', '--speed', '0']],
    [['logs', '-n', 'many']],
    [['completion']],
    [['completion', 'tcsh']],
    [['status', 'extra-argument']],
    [['breakers', 'reset', '--model', 'm']],
    [['status', '--config', join(h.dir, 'missing.yaml')]],
    [['serve', '--config', join(h.dir, 'missing.yaml')]],
  ])('%j is a usage or config error: exit 2', async (args) => {
    const result = await runCli(args, env, h.dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).not.toBe('');
  });

  it.each([[['status']], [['top']], [['breakers', 'reset']], [['logs', '-f']]])(
    '%j with no daemon running: exit 1, naming the socket',
    async (args) => {
      const result = await runCli([...args, '--socket', socket], env, h.dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(socket);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    },
  );
});
