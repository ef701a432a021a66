import type { Command } from 'commander';
import { formatIssue, loadConfig } from '@routeplane/shared';
import type { RunningDaemon } from '@routeplane/daemon';
import { EXIT_BAD_INPUT, EXIT_FAILURE } from '../output/errors.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the daemon in the foreground')
    .option('--config <path>', 'routeplane.yaml to run (default: discovered)')
    .action(async (opts: { config?: string }) => {
      // serve owns the process: it exits itself once the daemon is closed
      process.exit(await runServe(opts));
    });
}

async function runServe(opts: { config?: string }): Promise<number> {
  const loaded = loadConfig(opts.config);
  if (!loaded.ok) {
    for (const issue of loaded.issues) process.stderr.write(formatIssue(issue) + '\n');
    return EXIT_BAD_INPUT;
  }
  let daemon: RunningDaemon;
  try {
    const { startDaemon } = await import('@routeplane/daemon');
    daemon = await startDaemon(loaded.config, { log: (line) => process.stderr.write(line + '\n'), configPath: loaded.file });
  } catch (err) {
    process.stderr.write(`routeplane: cannot start: ${(err as Error).message}\n`);
    return EXIT_FAILURE;
  }
  process.stdout.write(`routeplane listening on ${daemon.url} (control: ${daemon.socketPath})\n`);
  if (daemon.stateFile !== null) process.stderr.write(`restored ${daemon.context.restored} breaker(s) from ${daemon.stateFile}\n`);

  // SIGHUP re-reads the config (spec/lanes.md "Live reload"); the daemon says what it did on stderr
  process.on('SIGHUP', () => {
    daemon.context.reload();
  });

  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  // A second signal while draining means "now".
  const force = () => {
    process.stderr.write('routeplane: second signal, exiting without waiting for in-flight requests\n');
    process.exit(EXIT_FAILURE);
  };
  process.once('SIGTERM', force);
  process.once('SIGINT', force);
  process.stderr.write(`routeplane: ${signal} received, shutting down\n`);
  await daemon.close();
  return 0;
}
