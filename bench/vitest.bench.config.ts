import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Bench-only: `pnpm test` includes packages/*/test/** and never sees these files.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions: ['@routeplane/source'] },
  ssr: { resolve: { conditions: ['@routeplane/source'] } },
  test: {
    include: ['bench/micro/**/*.bench.ts'],
    benchmark: { include: ['bench/micro/**/*.bench.ts'] },
    maxWorkers: 1,
  },
});
