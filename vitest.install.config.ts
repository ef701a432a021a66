import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:install`: a new user's install paths end to end — a fresh clone
 * with the README's commands, and the packed CLI in an empty npm prefix.
 * Separate from `pnpm test` because they download from the package registry
 * and take a minute or two; `.ci/run` runs them after the tests.
 */
export default defineConfig({
  resolve: { conditions: ['@routeplane/source'] },
  ssr: { resolve: { conditions: ['@routeplane/source'] } },
  test: {
    include: ['packages/tui/test/install/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
});
