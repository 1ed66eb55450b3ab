import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuntimeConfig } from '@passgate/contract';
import { isWellFormed } from './lib/unicode.ts';

/** The element the SPA reads its runtime configuration from (packages/web/src/lib/runtime-config.ts). */
export const CONFIG_ELEMENT_ID = 'passgate-config';
/** The element a sign-in page's request comes in (packages/web/src/lib/early-requests.ts). */
export const LOGIN_REQUEST_ELEMENT_ID = 'passgate-login-request';

export interface PageData {
  /** Pictures the page will paint first (a client's logo), fetched beside the scripts, before them. */
  images?: readonly string[];
  /** The sign-in request a /login or /register page shows, as GET /api/v1/requests/login answers it. */
  loginRequest?: unknown;
  /** The language the client's screen switches to once it knows the client, when not the start one. */
  clientLocale?: string;
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

/**
 * The chunks a page needs beyond the entry, by path: the language the SPA starts in, and for
 * screens that are chunks of their own, that screen. Announced in the HTML as module preloads,
 * they download beside the entry instead of after it.
 */
function chunksOfPage(path: string, locale: string): string[] {
  const flowTexts = `src/i18n/${locale}.json`;
  if (path === '/register') return [flowTexts, 'src/routes/register/Register.tsx'];
  if (path.startsWith('/user/') || path === '/') return [flowTexts, `src/i18n/account/${locale}.json`, 'src/routes/account/AccountArea.tsx'];
  return [flowTexts];
}

/** What goes into the head of index.html for one page: the runtime configuration and the preloads. */
export class SpaHead {
  private constructor(private readonly manifest: Manifest) {}

  /** Without the build's manifest (a hand-made dist in tests) pages get the configuration only. */
  static async load(distDir: string): Promise<SpaHead> {
    const text = await readFile(join(distDir, '.vite', 'manifest.json'), 'utf8').catch(() => '{}');
    return new SpaHead(JSON.parse(text) as Manifest);
  }

  render(path: string, locale: string, config: RuntimeConfig, { images = [], loginRequest, clientLocale }: PageData = {}): string {
    const files = new Set<string>();
    const collect = (key: string) => {
      const chunk = this.manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.imports?.forEach(collect);
    };
    const entry = Object.keys(this.manifest).find((key) => key === 'index.html');
    chunksOfPage(path, locale).forEach(collect);
    if (clientLocale && clientLocale !== locale) collect(`src/i18n/${clientLocale}.json`);
    if (entry) files.delete(this.manifest[entry]!.file);
    const preloads = [...files].filter((file) => file.endsWith('.js')).map((file) => `<link rel="modulepreload" href="/${escapeAttribute(file)}">`);
    // High: an image starts Low until laid out, and over HTTP/1.1 Chromium holds Low requests back
    // while High ones (a screen's dozen chunks) are in flight, so the logo would come after them.
    const pictures = images.filter(isFetchableImage).map((href) => `<link rel="preload" as="image" href="${escapeAttribute(href)}" fetchpriority="high">`);
    const data = [`<script type="application/json" id="${CONFIG_ELEMENT_ID}">${jsonForScript(config)}</script>`];
    if (loginRequest) data.push(`<script type="application/json" id="${LOGIN_REQUEST_ELEMENT_ID}">${jsonForScript(loginRequest)}</script>`);
    return [...data, ...pictures, ...preloads].join('');
  }
}

/**
 * JSON inside a script element ends at the first `</script`, and `<!--` changes how the element is
 * parsed: with every `<` escaped neither can occur, whatever a value holds.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A path of this site or an http(s) address: nothing else (javascript:, data:) is worth a preload.
 * Nor is an address that is not well-formed Unicode (a theme stored before the API refused such
 * text): it names no picture, and encoding it would throw.
 */
export function isFetchableImage(href: string): boolean {
  if (!isWellFormed(href)) return false;
  if (href.startsWith('/') && !href.startsWith('//')) return true;
  try {
    return ['http:', 'https:'].includes(new URL(href).protocol);
  } catch {
    return false;
  }
}

/** Puts `head` at the end of the page's head (or, for a page without one, at its start). */
export function injectHead(html: string, head: string): string {
  const at = html.indexOf('</head>');
  return at === -1 ? `${head}${html}` : `${html.slice(0, at)}${head}${html.slice(at)}`;
}
