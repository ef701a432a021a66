import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@routeplane/source'] },
  ssr: { resolve: { conditions: ['@routeplane/source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores in CI, but many files mostly wait (on a daemon, tmux, a demo playing in real
    // time): a third worker fills that waiting with another file's work. A fourth gains less
    // than the third and adds load to the files where time is the subject.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-module-cache',
          include: [
            'packages/shared/test/**/*.test.ts',
            'packages/daemon/test/**/*.test.ts',
            'packages/tui/test/cli/**/*.test.ts',
            'packages/tui/test/demo/**/*.test.ts',
            'packages/tui/test/docs/**/*.test.ts',
            'packages/tui/test/usage/**/*.test.ts',
          ],
          // Importing fastify, undici and the daemon's source again for every file cost more
          // than most files' tests. These files share no module state: each test starts its
          // own daemon, upstreams and temp dirs, nothing mocks a module or changes process.env,
          // and spies are restored after each test.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'ink',
          include: ['packages/tui/test/top/**/*.test.{ts,tsx}'],
          // Ink and React keep module state between renders of different files: these files
          // need a fresh module graph each.
          isolate: true,
        },
      },
    ],
  },
});
