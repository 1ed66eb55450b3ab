import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { chunkModules } from './chunk-modules.ts';
import { compileHints } from './compile-hints.ts';

const nodeModules = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/**
 * Where the shipped bundle differs from what the source imports. It renders with Preact (through
 * preact/compat) instead of React DOM: React DOM alone is about half of the 100 KB first-load
 * budget of /login (DESIGN.md section 8), and with MUI, react-router and i18next beside it no other
 * cut gets under it. The code is still written against React's API; the dev server and the
 * component tests run React itself, the end-to-end scenarios the shipped bundle.
 */
const buildAliases = [
  { find: /^react-dom\/client$/, replacement: fileURLToPath(new URL('./src/preact/react-dom-client.ts', import.meta.url)) },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
  // react-router's package exports only its development build (with its warnings); ship the production one.
  { find: /^react-router$/, replacement: `${nodeModules}react-router/dist/production/index.mjs` },
  // MUI calls emotion's styled() as a function only; the package's main entry also builds a styled
  // component for each of ~150 HTML and SVG tags while the page starts, which costs the first paint.
  { find: /^@emotion\/styled$/, replacement: '@emotion/styled/base' },
];

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
    plugins: [react(), chunkModules(), compileHints()],
    resolve: command === 'build' ? { alias: buildAliases } : {},
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
