/**
 * What every agent check sets up around each test: an outside trap for the
 * agents (./outside-trap.ts), and cleanups run after the test, the last
 * added first.
 */
import { afterEach, beforeEach } from 'vitest';
import { type OutsideTrap, startOutsideTrap } from './outside-trap.js';

export interface PerTest {
  readonly cleanups: Array<() => unknown>;
  /** the running test's trap */
  readonly outside: Pick<OutsideTrap, 'env' | 'attempts'>;
}

/** Call once at the top of a test file. */
export function perTest(): PerTest {
  const cleanups: Array<() => unknown> = [];
  let trap: OutsideTrap | null = null;
  beforeEach(async () => {
    const started = await startOutsideTrap();
    trap = started;
    cleanups.push(() => started.close());
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    trap = null;
  });
  const current = (): OutsideTrap => {
    if (trap === null) throw new Error('the outside trap is set up for each test only');
    return trap;
  };
  return {
    cleanups,
    outside: {
      get env() {
        return current().env;
      },
      get attempts() {
        return current().attempts;
      },
    },
  };
}
