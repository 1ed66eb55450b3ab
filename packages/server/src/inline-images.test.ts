import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createImageInliner, MAX_INLINE_BYTES } from './inline-images.ts';

describe('createImageInliner', () => {
  const dist = mkdtempSync(join(tmpdir(), 'passgate-inline-'));
  mkdirSync(join(dist, 'themes'));
  const logo = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
  writeFileSync(join(dist, 'themes', 'logo.svg'), logo);
  writeFileSync(join(dist, 'themes', 'big.png'), Buffer.alloc(MAX_INLINE_BYTES + 1));
  writeFileSync(join(dist, 'index.html'), '<!doctype html>');
  // A file beside the build folder, which no address may reach.
  writeFileSync(join(dist, '..', 'passgate-inline-secret.svg'), '<svg/>');
  const inline = createImageInliner(dist, 'https://id.example.com');
  const dataOf = (text: string) => `data:image/svg+xml;base64,${Buffer.from(text).toString('base64')}`;

  it('carries a small picture of the build by path or by the public URL', () => {
    expect(inline('/themes/logo.svg')).toBe(dataOf(logo));
    expect(inline('https://id.example.com/themes/logo.svg')).toBe(dataOf(logo));
  });

  it("keeps the address of another site's picture, a large or missing file, and anything that is not a picture of the build", () => {
    for (const href of [
      'https://cdn.example/themes/logo.svg',
      'https://id.example.com.evil.example/themes/logo.svg',
      '//cdn.example/themes/logo.svg',
      '/themes/big.png',
      '/themes/missing.svg',
      '/index.html',
      '/themes/../../passgate-inline-secret.svg',
      '/%2e%2e/passgate-inline-secret.svg',
      '/themes//logo.svg',
      'javascript:alert(1)',
    ]) {
      expect(inline(href), href).toBeUndefined();
    }
  });
});
