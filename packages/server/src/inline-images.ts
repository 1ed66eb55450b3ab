import { readFileSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** A picture's address in a page, or a `data:` address carrying the picture itself; undefined keeps the address. */
export type ImageInliner = (href: string) => string | undefined;

/** Larger pictures stay requests of their own: the HTML would outgrow the first round trip. */
export const MAX_INLINE_BYTES = 8 * 1024;
/** Distinct addresses remembered (themes' pictures are few; the bound keeps odd ones from growing it). */
const MAX_REMEMBERED = 200;

const TYPES: Record<string, string> = { svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };
const OWN_PICTURE = /^\/[A-Za-z0-9_-][A-Za-z0-9_./-]*\.(svg|png|jpe?g|webp|gif)$/;

/**
 * Small pictures this site serves from the web build (the seeded themes' logos, icons and
 * backgrounds under /themes), as `data:` addresses, for the shell the server draws before the
 * scripts run. The client's logo is the largest thing a sign-in screen paints: carried in the HTML,
 * it paints with the page's first frame instead of one round trip later, behind the scripts
 * sharing the phone's bandwidth. Pictures are named by path or by the public URL. Another site's picture, a missing or larger file, or any address
 * that leaves the build folder keeps its address. Each file is read once.
 */
export function createImageInliner(distDir: string, publicUrl: string): ImageInliner {
  const root = resolve(distDir);
  const ownOrigin = `${publicUrl.replace(/\/+$/, '')}/`;
  const remembered = new Map<string, string | undefined>();
  const read = (address: string): string | undefined => {
    // The seeded clients name their pictures with the public URL in front.
    const href = address.startsWith(ownOrigin) ? address.slice(ownOrigin.length - 1) : address;
    const match = OWN_PICTURE.exec(href);
    if (!match || href.includes('..') || href.includes('//')) return undefined;
    const file = resolve(root, `.${href}`);
    if (!file.startsWith(root + sep)) return undefined;
    try {
      if (statSync(file).size > MAX_INLINE_BYTES) return undefined;
      return `data:${TYPES[match[1]!.toLowerCase()]};base64,${readFileSync(file).toString('base64')}`;
    } catch {
      return undefined;
    }
  };
  return (href) => {
    if (remembered.has(href)) return remembered.get(href);
    const value = read(href);
    if (remembered.size < MAX_REMEMBERED) remembered.set(href, value);
    return value;
  };
}
