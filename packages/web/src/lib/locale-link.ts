import type { Locale } from '@passgate/contract';

/**
 * `href` with `locale=<locale>` when it leads to a page of Passgate itself (same origin, or a path):
 * that page opens in a new load, where only the address (or a stored choice) tells it which
 * language the user was reading. Links to other sites are left as they are.
 */
export function withLocale(href: string, locale: Locale, origin: string = window.location.origin): string {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return href;
  }
  if (url.origin !== origin) return href;
  url.searchParams.set('locale', locale);
  return /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//') ? url.toString() : `${url.pathname}${url.search}${url.hash}`;
}
