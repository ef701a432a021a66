import type { Command } from 'commander';
import { connectControl, type ControlClient } from '../client/control-client.js';
import { resolveSocketPath } from '../client/socket-path.js';

/** `--config` and `--socket`, taken by every command that talks to the daemon. */
export interface ClientOptions {
  config?: string;
  socket?: string;
}

export function withClientOptions(command: Command): Command {
  return command
    .option('--config <path>', 'routeplane.yaml that names the control socket')
    .option('--socket <path>', 'control socket of the daemon (overrides the config)');
}

/** Connects to the daemon the options point at, runs `use`, and always hangs up. */
export async function withDaemon<T>(opts: ClientOptions, use: (client: ControlClient) => Promise<T>): Promise<T> {
  const client = await connectControl(resolveSocketPath(opts));
  try {
    return await use(client);
  } finally {
    client.close();
  }
}
