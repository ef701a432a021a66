import { connectControl, DaemonNotRunningError } from '../client/control-client.js';
import { plainSnapshot } from './plain-snapshot.js';
import { checkProtocol, ConnectionManager } from './source/connection-manager.js';
import type { ConnectMonitorClient } from './source/monitor-client.js';
import { MonitorStore } from './store/monitor-store.js';
import { themeFromEnv } from './ui/theme.js';

/**
 * `routeplane top`. On a terminal: the live monitor until `q` (exit 0).
 * Not on a terminal (piped, redirected, CI): one snapshot, plain text or
 * with `--json` the snapshot JSON on one line, and exit 0. No daemon: one
 * line naming the socket path, exit 1.
 */
export interface TopOptions {
  socketPath: string;
  json: boolean;
  /** aborting closes the monitor as `q` would (the demo stops it this way) */
  signal?: AbortSignal;
}

export async function runTop(opts: TopOptions): Promise<number> {
  const connect: ConnectMonitorClient = () => connectControl(opts.socketPath);
  const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY) && !opts.json;
  if (!interactive) return printOnce(connect, opts);

  const store = new MonitorStore();
  const manager = new ConnectionManager({ connect, store });
  const started = await manager.start();
  if (!started.ok) {
    manager.stop();
    store.stop();
    process.stderr.write(cannotConnect(started.error, opts.socketPath) + '\n');
    return 1;
  }
  chooseReactProductionBuild();
  renderLiveEvenWhenCiIsSet();
  try {
    const { runInteractive } = await import('./app-session.js');
    return await runInteractive({ store, manager, theme: themeFromEnv(), signal: opts.signal });
  } finally {
    // Also on a failed import or render: a live reconnect timer would keep the process up forever.
    manager.stop();
    store.stop();
  }
}

async function printOnce(connect: ConnectMonitorClient, opts: TopOptions): Promise<number> {
  let client: Awaited<ReturnType<ConnectMonitorClient>>;
  try {
    client = await connect();
  } catch (err) {
    process.stderr.write(cannotConnect(err, opts.socketPath) + '\n');
    return 1;
  }
  try {
    if (opts.json) {
      process.stdout.write(JSON.stringify(await client.request('snapshot')) + '\n');
    } else {
      const hello = await client.request('hello');
      checkProtocol(hello);
      process.stdout.write(plainSnapshot(hello, await client.request('snapshot')));
    }
    return 0;
  } catch (err) {
    process.stderr.write(cannotConnect(err, opts.socketPath) + '\n');
    return 1;
  } finally {
    client.close();
  }
}

/**
 * React picks its build from NODE_ENV when it is first loaded, which is why
 * the Ink app is imported only after this. The development build records a
 * performance measure per component render and never drops them: in a
 * monitor that renders 20 times a second for days, that is a memory leak
 * (hundreds of MB within a minute of heavy traffic) and 4× the CPU.
 */
function chooseReactProductionBuild(): void {
  process.env.NODE_ENV = 'production';
}

/**
 * Ink decides once, when it is first loaded, that a `CI` variable means "no
 * live rendering" and draws nothing until exit. Both ends are a terminal here
 * (checked above), so a person is watching: a CI variable left exported in a
 * dev shell or container must not blank the monitor.
 */
function renderLiveEvenWhenCiIsSet(): void {
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
}

function cannotConnect(err: unknown, socketPath: string): string {
  if (err instanceof DaemonNotRunningError) return err.message;
  const reason = err instanceof Error ? err.message : String(err);
  return `routeplane top: cannot talk to the daemon at ${socketPath}: ${reason}`;
}
