import { describe, expect, it } from 'vitest';
import { asLocale, firstSupportedLocale, queryLocale, resolveLocale, storeLocale, storedLocale } from './language.ts';

describe('language rule (DESIGN.md section 8)', () => {
  it('takes the query first, then the stored choice, then the client, then vi', () => {
    expect(resolveLocale({ query: 'en', stored: 'vi', client: 'vi' })).toBe('en');
    expect(resolveLocale({ query: null, stored: 'en', client: 'vi' })).toBe('en');
    expect(resolveLocale({ query: null, stored: null, client: 'en' })).toBe('en');
    expect(resolveLocale({})).toBe('vi');
  });

  it('reads the locale query parameter, ignoring unsupported languages', () => {
    expect(queryLocale('?challenge=abc&locale=en')).toBe('en');
    expect(queryLocale('?locale=EN-us')).toBe('en');
    expect(queryLocale('?locale=fr')).toBeNull();
    expect(queryLocale('?challenge=abc')).toBeNull();
  });

  it('remembers the choice in local storage', () => {
    expect(storedLocale()).toBeNull();
    storeLocale('en');
    expect(storedLocale()).toBe('en');
  });

  it('mirrors the choice into the cookie the server starts the next page in', () => {
    storeLocale('en');
    expect(document.cookie).toContain('passgate_locale=en');
    storeLocale('vi');
    expect(document.cookie).toContain('passgate_locale=vi');
    expect(document.cookie).not.toContain('passgate_locale=en');
  });

  it('accepts only vi and en', () => {
    expect(asLocale('vi')).toBe('vi');
    expect(asLocale('de')).toBeNull();
    expect(asLocale(undefined)).toBeNull();
  });

  it('picks the first supported language of an OIDC ui_locales value', () => {
    expect(firstSupportedLocale('en-US vi')).toBe('en');
    expect(firstSupportedLocale('fr  vi-VN')).toBe('vi');
    expect(firstSupportedLocale('fr de')).toBeNull();
    expect(firstSupportedLocale(undefined)).toBeNull();
  });
});
