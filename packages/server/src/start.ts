import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { privateCompileCacheDir } from './lib/compile-cache.ts';

// The process entry of the build (dist/main.js). From Node 22.1 on, Node keeps the compiled code of
// the modules it loads on disk, so a restart skips most of their compilation; on Node 20 this does
// nothing. It has to run before the server's modules load, hence the server comes in by a dynamic
// import. The folder is this user's own (lib/compile-cache.ts); NODE_COMPILE_CACHE, when set, is the
// operator's choice, which Node has already applied.
const enableCompileCache = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
if (enableCompileCache && !process.env.NODE_COMPILE_CACHE) {
  const dir = privateCompileCacheDir(tmpdir());
  if (dir) enableCompileCache(dir);
}
await import('./main.ts');
