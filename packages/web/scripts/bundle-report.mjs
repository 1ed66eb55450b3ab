// The first load of /login must stay within 100 KB (102,400 bytes) of JavaScript, gzip, all chunks
// together (DESIGN.md section 8): the build fails above it. Run after `vite build`: it reads dist/.vite/manifest.json and sums the
// entry chunk, the login route chunk (when the login screen is not bundled into the entry) and the
// default language, each with its static imports. With dist/.vite/chunk-modules.json (written by
// the chunk-modules plugin) it also fails when that first load would include the account area,
// oidc-client-ts or TanStack Query, or would not include the login screen. It fails too when a
// chunk lacks V8's compile hint on its first line (compile-hints.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 100 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

/** Chunks the /login page fetches before it can show anything. */
const FIRST_LOAD = [
  { label: 'entry', find: ([, chunk]) => chunk.isEntry },
  // A chunk of its own when lazy; absent from the manifest when it is part of the entry.
  { label: 'login route', find: ([src]) => src === 'src/routes/login/Login.tsx', optional: true },
  { label: 'default language (vi)', find: ([src]) => src === 'src/i18n/vi.json' },
];
/** Must never be part of that first load: the account area, the admin console (and its charts) and their sign-in library. */
const FORBIDDEN = [/^packages\/web\/src\/routes\/account\//, /^packages\/web\/src\/routes\/admin\//, /node_modules\/oidc-client-ts\//, /node_modules\/@tanstack\//, /node_modules\/@mui\/x-charts/];
const chunkModules = JSON.parse(readFileSync(join(dist, '.vite', 'chunk-modules.json'), 'utf8'));

const files = new Map();
function collect(key, seen = new Set()) {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
  if (chunk.file.endsWith('.js')) files.set(chunk.file, key);
  for (const imported of chunk.imports ?? []) collect(imported, seen);
}

for (const { label, find, optional } of FIRST_LOAD) {
  const found = Object.entries(manifest).find(find);
  if (!found && optional) continue;
  if (!found) {
    console.error(`bundle-report: no ${label} chunk in the manifest`);
    process.exit(1);
  }
  collect(found[0]);
}

const forbidden = [...files.keys()].flatMap((file) => (chunkModules[file] ?? []).filter((id) => FORBIDDEN.some((rule) => rule.test(id))));
if (!files.size || ![...files.keys()].some((file) => (chunkModules[file] ?? []).includes('packages/web/src/routes/login/Login.tsx'))) {
  console.error('bundle-report: the login screen is not part of the measured first load');
  process.exit(1);
}
const rows = [...files.keys()].map((file) => {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
});
rows.sort((a, b) => b.gzip - a.gzip);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const print = (line) => process.stdout.write(`${line}\n`);
print('First load of /login (JavaScript):');
for (const row of rows) print(`  ${row.file.padEnd(48)} ${kb(row.raw).padStart(10)} raw ${kb(row.gzip).padStart(10)} gzip`);
print(`Total: ${kb(total)} gzip (budget ${kb(BUDGET_BYTES)})`);

if (forbidden.length > 0) {
  console.error(`bundle-report: the first load of /login includes account-area code:\n  ${forbidden.join('\n  ')}`);
  process.exit(1);
}
const unhinted = readdirSync(join(dist, 'assets')).filter((file) => file.endsWith('.js') && !readFileSync(join(dist, 'assets', file), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'));
if (unhinted.length > 0) {
  console.error(`bundle-report: chunks without the compile hint on their first line:\n  ${unhinted.join('\n  ')}`);
  process.exit(1);
}
if (total > BUDGET_BYTES) {
  console.error(`bundle-report: over budget by ${kb(total - BUDGET_BYTES)}`);
  process.exit(1);
}
