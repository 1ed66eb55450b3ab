import type { PublicClient } from '@passgate/contract';
import { HEX_COLOUR_PATTERN } from '@passgate/contract';
import { encodeUriOf } from './lib/unicode.ts';
import { escapeAttribute, isFetchableImage } from './spa-head.ts';
import type { ImageInliner } from './inline-images.ts';

/** The element the SPA removes once its own screen shows (packages/web/src/lib/sign-in-shell.ts). */
export const SHELL_ELEMENT_ID = 'passgate-shell';

/** The screens' defaults (packages/web/src/theme/themes.ts), for a client theme without its own. */
export const DEFAULT_PRIMARY = '#1F5FBF';
export const DEFAULT_BACKGROUND = '#EEF2F8';
const DEFAULT_BACKGROUND_IMAGE = '/themes/default-bg.svg';
export const FONT_FAMILY = '"Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

/**
 * Where the logo sits on each screen: the sizes of the Login screen and of the other flow screens
 * (Login.tsx, ClientFlowPage.tsx). The shell's logo must be where and as large as the screen's:
 * the swap is then invisible, and the screen's logo is not a new, later largest paint.
 */
const LOGO_OF_PAGE: Record<string, { maxHeight: number; marginBottom: number }> = {
  '/login': { maxHeight: 64, marginBottom: 16 },
  '/register': { maxHeight: 56, marginBottom: 12 },
};

/**
 * The frame of PublicPage.tsx in plain CSS, for the moments before the scripts run: the client's
 * background, its icon where the header shows it, and the card with the logo. Class names are the
 * shell's own; nothing else on the page uses them.
 */
export const SHELL_STYLE = [
  `#${SHELL_ELEMENT_ID}{position:fixed;inset:0;z-index:2000;display:flex;flex-direction:column;overflow:hidden;background-size:cover;background-position:center;background-repeat:no-repeat}`,
  '.pg-shell-header{box-sizing:border-box;display:flex;align-items:center;min-height:64px;padding:12px 16px}',
  '.pg-shell-icon{width:28px;height:28px;border-radius:10px}',
  '.pg-shell-main{display:flex;flex-direction:column;align-items:center;padding:8px 16px 64px}',
  '.pg-shell-card{box-sizing:border-box;width:100%;max-width:420px;padding:20px;border-radius:30px;background:#fff;text-align:center;' +
    'box-shadow:0 3px 3px -2px rgba(0,0,0,.2),0 3px 4px 0 rgba(0,0,0,.14),0 1px 8px 0 rgba(0,0,0,.12)}',
  '.pg-shell-card img{max-width:70%}',
  `.pg-shell-card noscript{display:block;font:0.875rem/1.5 ${FONT_FAMILY};color:rgba(0,0,0,.6)}`,
  '@media (min-width:600px){.pg-shell-header{padding:12px 24px}.pg-shell-main{padding-top:32px}.pg-shell-card{padding:32px}}',
].join('');

/** A layer of `colour` (#RRGGBB, checked) at 80 %, over the default picture. */
function veil(colour: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16));
  const rgba = `rgba(${r}, ${g}, ${b}, 0.8)`;
  return `linear-gradient(${rgba}, ${rgba})`;
}

/** Whether `path` is a screen the shell is drawn for. */
export function hasSignInShell(path: string): boolean {
  return path in LOGO_OF_PAGE;
}

/**
 * What a sign-in screen looks like before its scripts have run, drawn by the server from the
 * request the page carries: on a slow phone the client's brand shows at once instead of a blank
 * page. It covers the page until the SPA's own screen is in place, and is hidden from assistive
 * technology, which reads the real screen.
 */
export function signInShell(path: string, client: PublicClient, inline: ImageInliner = () => undefined): string {
  const logo = LOGO_OF_PAGE[path];
  if (!logo) return '';
  // A picture the page carries itself paints with the first frame (see inline-images.ts).
  const source = (href: string) => inline(href) ?? href;
  const theme = client.theme;
  const ownColour = theme.backgroundColor && HEX_COLOUR_PATTERN.test(theme.backgroundColor) ? theme.backgroundColor : undefined;
  const ownPicture = theme.backgroundImageUri && isFetchableImage(theme.backgroundImageUri) ? theme.backgroundImageUri : undefined;
  const pictureHref = ownPicture ?? DEFAULT_BACKGROUND_IMAGE;
  const inlinePicture = inline(pictureHref);
  // A data: address is base64 (nothing to escape); an address is encoded to stay inside its CSS string.
  const picture = `url(&quot;${inlinePicture ?? escapeAttribute(encodeUriOf(pictureHref))}&quot;)`;
  // As backgroundImageOf (themes.ts): the default picture wears a veil of the client's own colour.
  const layers = !ownPicture && ownColour ? `${veil(ownColour)},${picture}` : picture;
  const background = `background-color:${ownColour ?? DEFAULT_BACKGROUND};background-image:${layers}`;
  const icon = theme.iconUri && isFetchableImage(theme.iconUri) ? `<img class="pg-shell-icon" src="${escapeAttribute(source(theme.iconUri))}" alt="">` : '';
  const logoImage =
    client.logoUri && isFetchableImage(client.logoUri)
      ? `<img src="${escapeAttribute(source(client.logoUri))}" alt="" fetchpriority="high" style="max-height:${logo.maxHeight}px;margin-bottom:${logo.marginBottom}px">`
      : '';
  return (
    `<div id="${SHELL_ELEMENT_ID}" aria-hidden="true" style="${background}">` +
    `<div class="pg-shell-header">${icon}</div>` +
    `<div class="pg-shell-main"><div class="pg-shell-card">${logoImage}` +
    '<noscript>Vui lòng bật JavaScript để sử dụng trang này. / Please enable JavaScript to use this page.</noscript>' +
    '</div></div></div>'
  );
}

/** Puts the shell just before the SPA's root element (or, for a page without one, leaves it out). */
export function injectShell(html: string, shell: string): string {
  const at = html.indexOf('<div id="root">');
  return at === -1 ? html : `${html.slice(0, at)}${shell}${html.slice(at)}`;
}
