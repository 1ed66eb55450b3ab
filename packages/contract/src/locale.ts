export const LOCALES = ['vi', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'vi';

/**
 * The cookie that mirrors the language chosen with the switcher (the SPA keeps the choice in
 * localStorage, which the server cannot read): the server starts a page in it, so what the HTML
 * paints before the scripts run and the language texts it preloads are the ones the SPA shows.
 * Not a secret and not trusted for anything else.
 */
export const LOCALE_COOKIE = 'passgate_locale';
