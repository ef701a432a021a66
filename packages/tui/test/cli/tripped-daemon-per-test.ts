import type { TestContext } from 'vitest';
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
 * for one test; both are torn down when that test ends. Tied to the test's own
 * context, so tests that run side by side never tear down each other's.
 */
export async function trippedDaemonFor(test: TestContext, influenceEnabled = true): Promise<CliFixture> {
  const d = await startDaemonWithUpstreams(influenceEnabled);
  const home = tempHome();
  test.onTestFinished(async () => {
    home.remove();
    await d.close();
  });
  return { d, home: home.dir, socket: d.t.daemon.socketPath };
}
