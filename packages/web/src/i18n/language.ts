import { DEFAULT_LOCALE, LOCALE_COOKIE } from '@passgate/contract/rules';
import type { Locale } from '@passgate/contract';

export const LANGUAGES: readonly Locale[] = ['vi', 'en'];
const STORAGE_KEY = 'passgate.locale';

export function asLocale(value: string | null | undefined): Locale | null {
  const short = value?.trim().toLowerCase().slice(0, 2);
  return LANGUAGES.find((l) => l === short) ?? null;
}

/** The first supported language of an OIDC `ui_locales` value ("en-US vi"), if any. */
export function firstSupportedLocale(uiLocales: string | null | undefined): Locale | null {
  for (const tag of uiLocales?.split(/\s+/) ?? []) {
    const locale = asLocale(tag);
    if (locale) return locale;
  }
  return null;
}

/** The `locale` query parameter of the current address. */
export function queryLocale(search: string = window.location.search): Locale | null {
  return asLocale(new URLSearchParams(search).get('locale'));
}

export function storedLocale(): Locale | null {
  try {
    return asLocale(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    return null;
  }
}

/** Remembers the language the user picked with the switcher. */
export function storeLocale(locale: Locale): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private mode or storage disabled: the choice lasts for this page only.
  }
  mirrorLocaleToServer(locale);
}

const A_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The choice, in a cookie the server reads (LOCALE_COOKIE): the HTML of the next page then paints
 * (and preloads the texts of) the language the SPA will show. Also called at start for a choice
 * stored before the cookie existed.
 */
export function mirrorLocaleToServer(locale: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LOCALE_COOKIE}=${locale}; Path=/; Max-Age=${A_YEAR_SECONDS}; SameSite=Lax${secure}`;
}

const CARRY_KEY = 'passgate.locale.next-page';

/**
 * Hands the language being read to the next page this tab loads, once: a page the provider sends
 * the browser to with an address that cannot carry it (the registered post-logout address).
 */
export function carryLocaleToNextPage(locale: Locale): void {
  try {
    window.sessionStorage.setItem(CARRY_KEY, locale);
  } catch {
    // Storage disabled: the next page speaks its default.
  }
}

/** The language the previous page of this tab handed on (carryLocaleToNextPage), taken once. */
export function takeCarriedLocale(): Locale | null {
  try {
    const carried = asLocale(window.sessionStorage.getItem(CARRY_KEY));
    window.sessionStorage.removeItem(CARRY_KEY);
    return carried;
  } catch {
    return null;
  }
}

/** DESIGN.md section 8: query `locale`, then the stored choice, then the client's setting, then vi. */
export function resolveLocale(sources: { query?: Locale | null; stored?: Locale | null; client?: Locale | null }): Locale {
  return sources.query ?? sources.stored ?? sources.client ?? DEFAULT_LOCALE;
}

/** Whether the user (by the address or the switcher) has already chosen, so the client's setting must not override. */
export function userChoseLocale(search: string = window.location.search): boolean {
  return queryLocale(search) !== null || storedLocale() !== null;
}
