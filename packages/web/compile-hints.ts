import type { Plugin } from 'vite';

const HINT = '//# allFunctionsCalledOnLoad\n';

/**
 * Marks every JavaScript chunk with V8's explicit compile hint (Chromium 136 and later): the
 * browser then compiles the chunk's functions while it downloads and parses it, on a background
 * thread, instead of compiling each one on the main thread the first time it is called. A chunk
 * here is code of the screen being opened (the entry holds the login screen, every other screen
 * is a chunk of its own), so most of its functions run in that screen's first render; compiled
 * lazily, that compilation was about half of the first render's long task on a slow phone. Other
 * browsers read the line as a comment. The hint has to be the file's first line, so it goes in
 * after Vite has put its own preload list on top, and a source map moves down one line with it.
 */
export function compileHints(): Plugin {
  return {
    name: 'passgate:compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue;
          output.code = HINT + output.code;
          const map = bundle[output.sourcemapFileName ?? `${output.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const parsed = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
        }
      },
    },
  };
}
