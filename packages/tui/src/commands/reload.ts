import type { Command } from 'commander';
import { ControlRequestError } from '../client/control-client.js';
import { colourFor } from '../output/colour.js';
import { EXIT_BAD_INPUT } from '../output/errors.js';
import { type ClientOptions, withClientOptions, withDaemon } from './client-options.js';

/**
 * `routeplane reload`: the running daemon re-reads its config file (and its
 * env file). Exit 0 when applied, 2 on any refusal, with the daemon's reasons.
 */
export function registerReload(program: Command): void {
  withClientOptions(program.command('reload').description("re-read the running daemon's config file (like SIGHUP)")).action(
    async (opts: ClientOptions) => {
      process.exitCode = await runReload(opts);
    },
  );
}

async function runReload(opts: ClientOptions): Promise<number> {
  const colour = colourFor(process.stdout);
  return withDaemon(opts, async (client) => {
    try {
      const { changes } = await client.request('reload');
      process.stdout.write(`${colour.green('●')} config reloaded\n`);
      for (const change of changes) process.stdout.write(`  ${change}\n`);
      if (changes.length === 0) process.stdout.write('  nothing changed\n');
      return 0;
    } catch (err) {
      if (err instanceof ControlRequestError && err.code === 'bad_config') {
        process.stderr.write('routeplane: reload refused; the daemon keeps its running config\n');
        for (const line of err.message.split('\n')) process.stderr.write(`${line}\n`);
        return EXIT_BAD_INPUT;
      }
      throw err;
    }
  });
}
