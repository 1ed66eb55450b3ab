import module from 'node:module';

// The production process's entry (dist/main.js). Node 22.1 and later keep the compiled code of
// what follows on disk between starts (in the OS's temporary folder), which shortens every start
// after the first; older Node has no such cache and starts as before.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./main.ts');
