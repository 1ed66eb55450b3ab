import { relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Writes dist/.vite/chunk-modules.json: the modules each JavaScript chunk holds (paths relative to
 * the repository), so scripts/bundle-report.mjs can prove the first load of /login holds no
 * account-area code and no oidc-client-ts.
 */
export function chunkModules(): Plugin {
  return {
    name: 'passgate:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const root = new URL('../..', import.meta.url).pathname;
      const chunks: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks[output.fileName] = output.moduleIds.map((id) => relative(root, id.replace(/^\0/, '')));
      }
      this.emitFile({ type: 'asset', fileName: '.vite/chunk-modules.json', source: `${JSON.stringify(chunks, null, 2)}\n` });
    },
  };
}
