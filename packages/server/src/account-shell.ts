// The account area wears the default theme: the sign-in screens' defaults.
import type { Locale } from '@passgate/contract';
import { DEFAULT_BACKGROUND, DEFAULT_PRIMARY, FONT_FAMILY, SHELL_ELEMENT_ID } from './sign-in-shell.ts';
import { escapeHtml } from './lib/html.ts';
// The SPA's own texts, so the shell says exactly what the screen then says.
import accountVi from '../../web/src/i18n/account/vi.json' with { type: 'json' };
import accountEn from '../../web/src/i18n/account/en.json' with { type: 'json' };
import flowVi from '../../web/src/i18n/vi.json' with { type: 'json' };
import flowEn from '../../web/src/i18n/en.json' with { type: 'json' };

const TEXT = 'rgba(0,0,0,.87)';
const SECONDARY_TEXT = 'rgba(0,0,0,.6)';

/**
 * The account area's header bar (AccountHeader.tsx: MUI's Toolbar, 56 px high on phones and 64 px
 * from 600 px, under a 1 px border; the hamburger's place before the app's name below 900 px) and
 * the dashboard's heading and first card (Dashboard.tsx while the profile loads: Typography h1, an
 * outlined Card with the Loading spinner and the description in body2), in plain CSS for the
 * moments before the scripts run. Sizes, spacing and colours are those the shipped screen computes,
 * so nothing moves when it replaces the shell (e2e/tests/sign-in-shell.spec.ts compares the two in
 * Chromium). Class names are the shell's own.
 */
export const ACCOUNT_SHELL_STYLE = [
  // Clicks go through to the screen under it, and nothing in it is a target.
  `#${SHELL_ELEMENT_ID}{position:fixed;inset:0;z-index:2000;background:${DEFAULT_BACKGROUND};pointer-events:none;font-family:${FONT_FAMILY};color:${TEXT}}`,
  '.pg-account-bar{display:flex;align-items:center;min-height:56px;padding:0 16px;background:#fff;border-bottom:1px solid rgba(0,0,0,.12)}',
  '.pg-account-menu{flex:none;width:40px;margin:0 8px 0 -12px}',
  // MUI's Menu icon: three 18 px bars, 2 px thick, 3 px apart, in the action colour.
  '.pg-account-menu::before{content:"";display:block;width:18px;height:12px;margin:0 auto;' +
    'background:linear-gradient(rgba(0,0,0,.54) 0 2px,transparent 2px 5px,rgba(0,0,0,.54) 5px 7px,transparent 7px 10px,rgba(0,0,0,.54) 10px 12px)}',
  `.pg-account-name{font-weight:700;font-size:1.2rem;line-height:1.5;color:${DEFAULT_PRIMARY}}`,
  `#${SHELL_ELEMENT_ID} noscript{display:block;padding:24px 16px;font-size:0.875rem;line-height:1.5;color:${SECONDARY_TEXT}}`,
  // AccountLayout: the side menu's 260 px column from 900 px, the page beside it.
  '.pg-account-body{display:flex}.pg-account-side{display:none;flex:none;width:260px}',
  '.pg-account-main{flex:1;min-width:0;padding:24px 16px}.pg-account-page{max-width:720px;margin:0 auto}',
  '.pg-account-h1{margin:0 0 24px;font-size:1.625rem;font-weight:600;line-height:1.167}',
  '.pg-account-card{box-sizing:border-box;background:#fff;border:1px solid rgba(0,0,0,.12);border-radius:30px;overflow:hidden}',
  '.pg-account-card-content{display:flex;flex-direction:column;align-items:center;text-align:center;gap:12px;padding:40px 16px 24px}',
  '.pg-account-loading{display:flex;flex-direction:column;align-items:center;gap:16px;padding:48px 0}',
  `.pg-account-spinner{box-sizing:border-box;width:40px;height:40px;border-radius:50%;border:4px solid rgba(0,0,0,.04);border-top-color:${DEFAULT_PRIMARY};animation:pg-spin .9s linear infinite}`,
  '@keyframes pg-spin{to{transform:rotate(360deg)}}',
  '@media (prefers-reduced-motion:reduce){.pg-account-spinner{animation-duration:2.5s}}',
  `.pg-account-body2{margin:0;font-size:0.875rem;line-height:1.43;color:${SECONDARY_TEXT}}`,
  '.pg-account-description{max-width:480px}',
  // Without scripts the page never comes: the shell says so instead of a spinner that never ends.
  '@media (scripting:none){.pg-account-body{display:none}}',
  '@media (min-width:600px){.pg-account-bar{min-height:64px;padding:0 24px}.pg-account-main{padding:32px 24px}}',
  '@media (min-width:900px){.pg-account-menu{display:none}.pg-account-side{display:block}}',
].join('');

/** Whether `path` is a page of the account area with its header (not the sign-in callback, which has none). */
export function hasAccountShell(path: string): boolean {
  return path.startsWith('/user/') && path !== '/user/callback';
}

const TEXTS: Record<Locale, { heading: string; description: string; loading: string }> = {
  vi: { heading: accountVi.account.dashboard.heading, description: accountVi.account.dashboard.description, loading: flowVi.common.loading },
  en: { heading: accountEn.account.dashboard.heading, description: accountEn.account.dashboard.description, loading: flowEn.common.loading },
};

/** The dashboard's heading and first card as they look while the profile loads (none of it is the user's). */
function dashboardPage(locale: Locale): string {
  const text = TEXTS[locale];
  return (
    '<div class="pg-account-body"><div class="pg-account-side"></div><div class="pg-account-main"><div class="pg-account-page">' +
    `<div class="pg-account-h1">${escapeHtml(text.heading)}</div>` +
    '<div class="pg-account-card"><div class="pg-account-card-content">' +
    `<div class="pg-account-loading"><div class="pg-account-spinner"></div><p class="pg-account-body2">${escapeHtml(text.loading)}</p></div>` +
    `<p class="pg-account-body2 pg-account-description">${escapeHtml(text.description)}</p>` +
    '</div></div></div></div></div>'
  );
}

/**
 * What an account page looks like before its scripts have run: the header bar with the app's name,
 * and on the dashboard (where a sign-in lands) its heading and description in the page's language,
 * instead of a blank page while a phone fetches and runs the scripts. It covers the page until the
 * SPA's own screen is in place, and is hidden from assistive technology, which reads the real screen.
 */
export function accountShell(path: string, locale: Locale): string {
  const page = path === '/user/dashboard' || path === '/user/dashboard/' ? dashboardPage(locale) : '';
  return (
    // data-release: the SPA removes it the moment its screen comes (lib/sign-in-shell.ts), as its texts are the screen's.
    `<div id="${SHELL_ELEMENT_ID}" aria-hidden="true" data-release="at-once">` +
    '<div class="pg-account-bar"><span class="pg-account-menu"></span><span class="pg-account-name">Passgate</span></div>' +
    '<noscript>Vui lòng bật JavaScript để sử dụng trang này. / Please enable JavaScript to use this page.</noscript>' +
    page +
    '</div>'
  );
}
