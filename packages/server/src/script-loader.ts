import { createHash } from 'node:crypto';
import { escapeHtml } from './lib/html.ts';

/**
 * A page that paints a shell from its HTML (sign-in-shell.ts, account-shell.ts) needs none of its
 * scripts for that first paint, yet the browser fetched them at once, and where they arrive before
 * it has laid the page out (a cached visit, a fast link, a busy phone whose first layout is slow)
 * it runs them, and the screen's whole first render, before it paints anything. This script, inline
 * in the head, asks for them only once the browser reports the shell's first paint on screen (a
 * paint timing entry), or after DEFER_LIMIT_MS whatever happens (a tab opened in the background
 * paints nothing). The entry and the page's chunks are the element's data attributes, so the code
 * is one constant string whose hash is the only inline script the content security policy allows.
 */
const DEFER_LIMIT_MS = 1000;

export const SCRIPT_LOADER = [
  '(function(){',
  'var tag=document.currentScript,data=tag.dataset,head=document.head,started=false;',
  'function start(){if(started)return;started=true;',
  "(data.preload?data.preload.split(' '):[]).forEach(function(href){var link=document.createElement('link');link.rel='modulepreload';link.href=href;head.appendChild(link);});",
  "var entry=document.createElement('script');entry.type='module';entry.crossOrigin='anonymous';entry.src=data.entry;head.appendChild(entry);}",
  // A browser without paint timing starts after its first frame.
  "try{new PerformanceObserver(function(list,observer){observer.disconnect();setTimeout(start,0);}).observe({type:'paint'});}",
  'catch(error){requestAnimationFrame(function(){setTimeout(start,0);});}',
  `setTimeout(start,${DEFER_LIMIT_MS});`,
  '})();',
].join('');

/** The CSP source that lets SCRIPT_LOADER, and no other inline script, run. */
export const SCRIPT_LOADER_SOURCE = `'sha256-${createHash('sha256').update(SCRIPT_LOADER).digest('base64')}'`;

/** The loader element for a page whose entry is `entry` and whose other chunks are `preloads` (paths of this site). */
export function scriptLoaderTag(entry: string, preloads: readonly string[]): string {
  const preload = preloads.length > 0 ? ` data-preload="${escapeHtml(preloads.join(' '))}"` : '';
  return `<script data-entry="${escapeHtml(entry)}"${preload}>${SCRIPT_LOADER}</script>`;
}

const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="[^"]*"[^>]*><\/script>\s*/;

/** index.html without the entry's module script, which the loader then adds. */
export function withoutEntryScript(html: string): string {
  return html.replace(ENTRY_SCRIPT, '');
}
