import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each server test file starts its own server with its own database; two at a time fit two cores.
    maxWorkers: 2,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30_000,
          // Every file starts its own server and database, and none mocks a module: loading the
          // server's modules once per worker instead of once per file halves the run (240 s -> 113 s
          // on two cores), most of which was spent importing them again for each of 85 files.
          isolate: false,
          hookTimeout: 60_000,
          globalSetup: ['test/postgres-schemas.global.ts'],
        },
      },
      'packages/web/vitest.config.ts',
    ],
  },
});
