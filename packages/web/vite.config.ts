import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chunkModules } from './chunk-modules.ts';

/** The API, the OpenID Connect provider, the demo relying party and the dev outbox: all served by the server. */
const backend = 'http://localhost:3000';
const proxied = ['/api', '/oidc', '/demo', '/dev'];

export default defineConfig(({ command }) => {
  // A build is always the production bundle the server ships and bundle-report.mjs measures. Vite
  // keeps an exported NODE_ENV (a shell with NODE_ENV=development running `npm start`), and with it
  // would bundle React's development build and the JSX dev runtime, far over the budget. Vite and
  // the React plugin read NODE_ENV only after loading this file, so setting it here is enough.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
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
  };
});
