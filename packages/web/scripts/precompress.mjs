// Writes .br and .gz beside every text asset of the build, so the server sends compressed files
// without compressing on each request (@fastify/static's preCompressed option).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const dist = new URL('../dist', import.meta.url).pathname;
const compressible = /\.(js|css|html|svg|json|txt|map)$/;
let count = 0;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (compressible.test(name) && statSync(path).size > 1024) {
      const data = readFileSync(path);
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      count += 1;
    }
  }
}

walk(dist);
console.log(`Precompressed ${count} files (.br and .gz).`);
