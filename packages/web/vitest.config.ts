import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    // Each file still runs in a fresh jsdom window of its own (no module state leaks from one to the
    // next), but in a reused worker process that loads Node's modules and jsdom's code once instead
    // of once per file: the web tests took 206 s on two cores in plain forks and 140 s here.
    // Processes, not threads, so that a test can change process.env.TZ. The sandbox's catch: an
    // error thrown by Node's own modules (fs, path) is not an instance of the test context's Error.
    pool: 'vmForks',
    include: ['src/**/*.test.{ts,tsx}', '*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    // A screen test renders the whole app, lazy chunks included, and types as a person would.
    testTimeout: 30_000,
  },
});
