import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@passgate/contract';
import { asLocale } from './language.ts';

/** Each language is its own chunk: the first load fetches only the one it shows. */
const bundles: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  vi: () => import('./vi.json'),
  en: () => import('./en.json'),
};

async function ensureLoaded(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  const bundle = await bundles[locale]();
  i18n.addResourceBundle(locale, 'translation', bundle.default, true, true);
}

export async function initI18n(locale: Locale): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: locale,
      fallbackLng: false,
      resources: {},
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
    });
  }
  await changeLanguage(locale);
  return i18n;
}

export async function changeLanguage(locale: Locale): Promise<void> {
  await ensureLoaded(locale);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

/** The language the screens show now (sent as Accept-Language). */
export function currentLanguage(): Locale {
  return asLocale(i18n.language) ?? 'vi';
}

export { i18n };
