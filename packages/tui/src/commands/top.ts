import type { Command } from 'commander';
import { resolveSocketPath } from '../client/socket-path.js';
import { withClientOptions, type ClientOptions } from './client-options.js';

export function registerTop(program: Command): void {
  withClientOptions(
    program
      .command('top')
      .description('live monitor of routes, breakers and decisions')
      .option('--json', 'print one snapshot as JSON and exit (for scripts)'),
  ).action(async (opts: ClientOptions & { json?: boolean }) => {
    const socketPath = resolveSocketPath(opts);
    // loaded on demand: Ink and React are not worth their start-up time to any other command
    const { runTop } = await import('../top/run.js');
    process.exitCode = await runTop({ socketPath, json: opts.json === true });
  });
}
