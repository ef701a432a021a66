import type { Command } from 'commander';
import { colourFor } from '../output/colour.js';
import { formatStatus } from '../output/status-view.js';
import { withClientOptions, withDaemon, type ClientOptions } from './client-options.js';

interface StatusOptions extends ClientOptions {
  json?: boolean;
}

export function registerStatus(program: Command): void {
  withClientOptions(
    program
      .command('status')
      .description(
        "the daemon (version, pid, uptime, URL, config, store), each seat's usage windows, and its open breakers: signal, time left, counts",
      )
      .option('--json', 'print the control `status` result as one JSON document'),
  ).action(async (opts: StatusOptions) => {
    process.exitCode = await runStatus(opts);
  });
}

async function runStatus(opts: StatusOptions): Promise<number> {
  return withDaemon(opts, async (client) => {
    if (opts.json) {
      const status = await client.request('status');
      process.stdout.write(JSON.stringify(status, null, 2) + '\n');
      return 0;
    }
    const [hello, status] = await Promise.all([client.request('hello'), client.request('status')]);
    const lines = formatStatus(status, { influenceEnabled: hello.influence.enabled, colour: colourFor(process.stdout) });
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  });
}
