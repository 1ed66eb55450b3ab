// The account area wears the default theme: the sign-in screens' defaults.
import { DEFAULT_BACKGROUND, DEFAULT_PRIMARY, FONT_FAMILY, SHELL_ELEMENT_ID } from './sign-in-shell.ts';

/**
 * The account area's header bar (AccountHeader.tsx: MUI's Toolbar, 56 px high on phones and 64 px
 * from 600 px, the hamburger's place before the app's name below 900 px) in plain CSS, for the
 * moments before the scripts run. Class names are the shell's own.
 */
export const ACCOUNT_SHELL_STYLE = [
  `#${SHELL_ELEMENT_ID}{position:fixed;inset:0;z-index:2000;background:${DEFAULT_BACKGROUND}}`,
  '.pg-account-bar{box-sizing:border-box;display:flex;align-items:center;min-height:56px;padding:0 16px;background:#fff;border-bottom:1px solid rgba(0,0,0,.12)}',
  '.pg-account-menu{flex:none;width:40px;margin:0 8px 0 -12px}',
  // MUI's Menu icon: three 18 px bars, 2 px thick, 3 px apart, in the action colour.
  '.pg-account-menu::before{content:"";display:block;width:18px;height:12px;margin:0 auto;' +
    'background:linear-gradient(rgba(0,0,0,.54) 0 2px,transparent 2px 5px,rgba(0,0,0,.54) 5px 7px,transparent 7px 10px,rgba(0,0,0,.54) 10px 12px)}',
  `.pg-account-name{font:700 1.2rem/1.5 ${FONT_FAMILY};color:${DEFAULT_PRIMARY}}`,
  `#${SHELL_ELEMENT_ID} noscript{display:block;padding:24px 16px;font:0.875rem/1.5 ${FONT_FAMILY};color:rgba(0,0,0,.6)}`,
  '@media (min-width:600px){.pg-account-bar{min-height:64px;padding:0 24px}}',
  '@media (min-width:900px){.pg-account-menu{display:none}}',
].join('');

/** Whether `path` is a page of the account area with its header (not the sign-in callback, which has none). */
export function hasAccountShell(path: string): boolean {
  return path.startsWith('/user/') && path !== '/user/callback';
}

/**
 * What an account page looks like before its scripts have run: the header bar with the app's name,
 * where the page then shows it, instead of a blank page while a phone fetches and runs the scripts.
 * It covers the page until the SPA's own screen is in place, and is hidden from assistive
 * technology, which reads the real screen.
 */
export const ACCOUNT_SHELL =
  `<div id="${SHELL_ELEMENT_ID}" aria-hidden="true">` +
  '<div class="pg-account-bar"><span class="pg-account-menu"></span><span class="pg-account-name">Passgate</span></div>' +
  '<noscript>Vui lòng bật JavaScript để sử dụng trang này. / Please enable JavaScript to use this page.</noscript>' +
  '</div>';
