import { describe, expect, it } from 'vitest';
import type { Rollup } from 'vite';
import { compileHints } from './compile-hints.ts';

function chunk(fileName: string, code: string): Rollup.OutputChunk {
  return { type: 'chunk', fileName, code, sourcemapFileName: `${fileName}.map` } as Rollup.OutputChunk;
}

function run(bundle: Record<string, Rollup.OutputChunk | Rollup.OutputAsset>): void {
  const hook = compileHints().generateBundle as { order: string; handler: (options: unknown, bundle: Rollup.OutputBundle) => void };
  expect(hook.order).toBe('post');
  hook.handler({}, bundle as Rollup.OutputBundle);
}

describe('compileHints', () => {
  it('puts the hint on the first line of every chunk, above what Vite put on top', () => {
    const entry = chunk('assets/index.js', 'const __vite__mapDeps=()=>[];\nexport const a=1;');
    const screen = chunk('assets/Screen.js', 'export default 2;');
    run({ [entry.fileName]: entry, [screen.fileName]: screen });
    expect(entry.code).toBe('//# allFunctionsCalledOnLoad\nconst __vite__mapDeps=()=>[];\nexport const a=1;');
    expect(screen.code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it('moves the source map down the one line it added, and leaves other assets alone', () => {
    const entry = chunk('assets/index.js', 'export const a=1;');
    const map = { type: 'asset', fileName: 'assets/index.js.map', source: JSON.stringify({ version: 3, mappings: 'AAAA;AACA', sources: ['a.ts'] }) } as Rollup.OutputAsset;
    const css = { type: 'asset', fileName: 'assets/index.css', source: 'body{}' } as Rollup.OutputAsset;
    run({ [entry.fileName]: entry, [map.fileName]: map, [css.fileName]: css });
    expect(JSON.parse(map.source as string)).toEqual({ version: 3, mappings: ';AAAA;AACA', sources: ['a.ts'] });
    expect(css.source).toBe('body{}');
  });
});
