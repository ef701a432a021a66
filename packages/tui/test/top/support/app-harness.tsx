import type { Snapshot } from '@routeplane/shared';
import { ConnectionManager } from '../../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../../src/top/store/monitor-store.js';
import { App } from '../../../src/top/ui/components/App.js';
import { createTheme } from '../../../src/top/ui/theme.js';
import { FakeDaemon } from './fake-daemon.js';
import { hello, healthySnapshot } from './fixtures.js';
import { renderInk, type RenderedInk } from './render-ink.js';

/** The whole monitor (store, connection manager, Ink app) against a FakeDaemon. */
export interface AppHarness {
  readonly daemon: FakeDaemon;
  readonly store: MonitorStore;
  readonly manager: ConnectionManager;
  readonly ui: RenderedInk;
  /** what `snapshot` answers from now on */
  setSnapshot(make: (now: number) => Snapshot): void;
  close(): void;
}

export async function startApp(
  options: {
    snapshot?: (now: number) => Snapshot;
    columns?: number;
    rows?: number;
    colour?: boolean;
    resetCleared?: number;
    /** what the first frame shows (default: the header's `● live`) */
    firstFrame?: string;
    /** how long transient messages stay (the app's default is 5 s) */
    messageMs?: number;
  } = {},
): Promise<AppHarness> {
  let makeSnapshot = options.snapshot ?? healthySnapshot;
  const daemon = new FakeDaemon({
    hello: () => hello(Date.now()),
    snapshot: () => makeSnapshot(Date.now()),
    subscribe: () => ({ subscribed: true }),
    reset: () => ({ cleared: options.resetCleared ?? 1 }),
    status: () => ({ now: Date.now(), open: [] }),
  });
  const store = new MonitorStore({ flushIntervalMs: 20 });
  const manager = new ConnectionManager({
    connect: daemon.connect,
    store,
    initialBackoffMs: 100,
    maxBackoffMs: 400,
    resnapshotIntervalMs: 100,
  });
  const started = await manager.start();
  if (!started.ok) throw started.error;
  store.start();
  const ui = renderInk(
    <App store={store} actions={manager} theme={createTheme({ colour: options.colour ?? false })} messageMs={options.messageMs} />,
    {
      columns: options.columns ?? 100,
      rows: options.rows ?? 30,
    },
  );
  await ui.ready();
  await ui.waitFor(options.firstFrame ?? '● live');
  return {
    daemon,
    store,
    manager,
    ui,
    setSnapshot: (make) => {
      makeSnapshot = make;
    },
    close: () => {
      ui.unmount();
      manager.stop();
      store.stop();
    },
  };
}
