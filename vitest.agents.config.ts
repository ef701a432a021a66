import { defineConfig } from 'vitest/config';

/**
 * `pnpm test:agents`: real Claude Code and Codex in front of the built
 * daemon. Separate from `pnpm test` (which stays fast and offline): the
 * first run installs the pinned agents into node_modules/.cache.
 */
export default defineConfig({
  resolve: { conditions: ['@routeplane/source'] },
  ssr: { resolve: { conditions: ['@routeplane/source'] } },
  test: {
    include: ['packages/*/test-agents/**/*.test.ts'],
    globalSetup: ['packages/tui/test-agents/support/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // each file starts several agents at once; two cores
    maxWorkers: 1,
  },
});
