import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@routeplane/source'] },
  ssr: { resolve: { conditions: ['@routeplane/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two busy cores in CI: keep files from starving each other.
    maxWorkers: 2,
  },
});
