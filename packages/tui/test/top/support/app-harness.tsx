import type { Breaker, DecisionEvent, InfluenceInfo } from '@routeplane/shared';
import { ConnectionManager } from '../../../src/top/source/connection-manager.js';
import { MonitorStore } from '../../../src/top/store/monitor-store.js';
import { App } from '../../../src/top/ui/components/App.js';
import { createTheme } from '../../../src/top/ui/theme.js';
import { FakeDaemon } from './fake-daemon.js';
import { renderInk, type RenderedInk } from './render-ink.js';

/** The whole monitor (store, connection manager, Ink app) against a FakeDaemon on a real socket. */
export interface AppHarness {
  readonly daemon: FakeDaemon;
  readonly store: MonitorStore;
  readonly manager: ConnectionManager;
  readonly ui: RenderedInk;
  close(): Promise<void>;
}

export async function startApp(
  options: {
    /** the daemon's breakers at start, from the time the app starts */
    breakers?: (now: number) => Breaker[];
    influence?: InfluenceInfo;
    columns?: number;
    rows?: number;
    colour?: boolean;
    /** what the first frame shows (default: the header's `● live`) */
    firstFrame?: string;
    /** the demo's scene line */
    scene?: (now: number) => string | null;
    /** the daemon's decision history (`recent`) at start */
    recent?: (now: number) => DecisionEvent[];
  } = {},
): Promise<AppHarness> {
  const daemon = await FakeDaemon.start({
    breakers: options.breakers?.(Date.now()),
    influence: options.influence,
    recent: options.recent?.(Date.now()),
  });
  const store = new MonitorStore({ flushIntervalMs: 20 });
  const manager = new ConnectionManager({ connect: daemon.connect, store, initialBackoffMs: 100, maxBackoffMs: 400 });
  const started = await manager.start();
  if (!started.ok) throw started.error;
  store.start();
  const ui = renderInk(
    <App store={store} actions={manager} theme={createTheme({ colour: options.colour ?? false })} scene={options.scene} />,
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
    close: async () => {
      ui.unmount();
      manager.stop();
      store.stop();
      await daemon.close();
    },
  };
}
