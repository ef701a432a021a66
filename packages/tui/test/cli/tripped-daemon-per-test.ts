import { afterEach } from 'vitest';
import { startDaemonWithUpstreams, type TrippedDaemon } from '../../../daemon/test/control/tripped-daemon.js';
import { tempHome } from '../../../daemon/test/helpers/cli-process.js';

export interface CliFixture {
  d: TrippedDaemon;
  /** a private HOME, so the CLI never sees the user's config */
  home: string;
  socket: string;
}

/**
 * A daemon in front of upstreams that trip its breakers, plus a private HOME,
 * per test; both are torn down after each test. Call at the top of a test file.
 */
export function trippedDaemonPerTest(): (influenceEnabled?: boolean) => Promise<CliFixture> {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (influenceEnabled = true) => {
    const d = await startDaemonWithUpstreams(influenceEnabled);
    cleanups.push(() => d.close());
    const home = tempHome();
    cleanups.push(home.remove);
    return { d, home: home.dir, socket: d.t.daemon.socketPath };
  };
}
