// Bundles the server and its command line into packages/server/dist for plain `node`
// (`--outdir=DIR` elsewhere, as the production-start test does). Packages from node_modules stay
// external: native addons (better-sqlite3, argon2, sharp) cannot be bundled and oidc-provider
// reads its own files. @passgate/contract is TypeScript source that node cannot load from
// node_modules, so it is bundled in.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXTERNAL = ['better-sqlite3', 'better-sqlite3-napi', '@node-rs/argon2', 'sharp', 'oidc-provider', 'pino', 'pg', 'pg-native', 'pg-cloudflare', 'ioredis'];

const serverDir = fileURLToPath(new URL('../packages/server/', import.meta.url));
const outdirArg = process.argv.slice(2).find((arg) => arg.startsWith('--outdir='));
const outdir = outdirArg ? resolve(outdirArg.slice('--outdir='.length)) : join(serverDir, 'dist');
const contractDir = new URL('../packages/contract/', import.meta.url);
const contractExports = JSON.parse(readFileSync(new URL('package.json', contractDir), 'utf8')).exports;

// Only this build's own outputs: chunk names change with their content, and a test may be running
// its own build in a folder under dist at the same time.
for (const stale of ['main.js', 'main.js.map', 'cli', 'chunks']) rmSync(join(outdir, stale), { recursive: true, force: true });

await build({
  absWorkingDir: serverDir,
  // dist/main.js is start.ts, which loads main.ts after turning Node's compile cache on.
  entryPoints: { main: 'src/start.ts', 'cli/main': 'src/cli/main.ts' },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Pure-JavaScript packages are bundled in: node then reads one file instead of resolving,
  // reading and compiling several hundred, which was most of the start-up time. Kept external:
  // native addons, packages that read their own files or load optional modules at run time.
  external: EXTERNAL,
  plugins: [
    {
      name: 'bundle-contract',
      setup(b) {
        b.onResolve({ filter: /^@passgate\/contract(\/|$)/ }, (args) => {
          const entry = contractExports[`.${args.path.slice('@passgate/contract'.length)}`];
          if (!entry) return { errors: [{ text: `${args.path} is not exported by packages/contract/package.json` }] };
          return { path: fileURLToPath(new URL(entry, contractDir)) };
        });
      },
    },
  ],
  // The CommonJS packages bundled in call require() for Node's own modules; an ES module has none.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
});
