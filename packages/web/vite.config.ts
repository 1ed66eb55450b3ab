import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chunkModules } from './chunk-modules.ts';

/** The API, the OpenID Connect provider, the demo relying party and the dev outbox: all served by the server. */
const backend = 'http://localhost:3000';
const proxied = ['/api', '/oidc', '/demo', '/dev'];

export default defineConfig({
  plugins: [react(), chunkModules()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // scripts/bundle-report.mjs reads it to measure the first load of /login.
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry (with the login screen) needs in one file: one file compresses
          // far better than many small shared chunks. Other screens stay in chunks of their own.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
});
