import { connectControl, DaemonNotRunningError } from '../client/control-client.js';
import { plainSnapshot } from './plain-snapshot.js';
import { checkProtocol, ConnectionManager } from './source/connection-manager.js';
import type { ConnectMonitorClient } from './source/monitor-client.js';
import { MonitorStore } from './store/monitor-store.js';
import { themeFromEnv } from './ui/theme.js';

/**
 * `routeplane top`. On a terminal: the live monitor until `q` (exit 0); when
 * no daemon is there yet it waits for one (`waiting for the daemon at PATH…`)
 * and connects when it appears. Not on a terminal (piped, redirected, CI) or
 * on a dumb one (`TERM=dumb`): one snapshot, plain text or with `--json` the
 * snapshot JSON on one line, and exit 0; there, no daemon is one line naming
 * the socket path, exit 1.
 */
export interface TopOptions {
  socketPath: string;
  json: boolean;
  /** aborting closes the monitor as `q` would (the demo stops it this way) */
  signal?: AbortSignal;
  /** the demo's scene in words at a time, shown under the header */
  scene?: (now: number) => string | null;
  env?: NodeJS.ProcessEnv;
}

/** A terminal that cannot place the cursor cannot show a live screen. */
export function isInteractive(stdout: { isTTY?: boolean }, stdin: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stdout.isTTY && stdin.isTTY) && env.TERM !== 'dumb';
}

export async function runTop(opts: TopOptions): Promise<number> {
  const connect: ConnectMonitorClient = () => connectControl(opts.socketPath);
  const interactive = isInteractive(process.stdout, process.stdin, opts.env ?? process.env) && !opts.json;
  if (!interactive) return printOnce(connect, opts);

  const store = new MonitorStore();
  const manager = new ConnectionManager({ connect, store, waitFor: { path: opts.socketPath } });
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
    return await runInteractive({ store, manager, theme: themeFromEnv(), signal: opts.signal, scene: opts.scene });
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
