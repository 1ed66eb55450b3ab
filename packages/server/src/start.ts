import nodeModule from 'node:module';

// The process entry of the build (dist/main.js). From Node 22.1 on, Node keeps the compiled code of
// the modules it loads on disk (NODE_COMPILE_CACHE, else a folder under the system's temporary
// directory), so a restart skips most of their compilation; on Node 20 this does nothing. It has to
// run before the server's modules load, hence the server comes in by a dynamic import.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main.ts');
