import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@passgate/contract';
import { asLocale } from './language.ts';

type Bundle = () => Promise<{ default: Record<string, unknown> }>;

/**
 * Translations come in parts, one chunk per part and language, so the first load of /login
 * fetches only the sign-in screens' strings in the language it shows. The account area's strings
 * are a part of their own, loaded when that area opens (`loadTranslationPart`).
 */
const parts = {
  flow: { vi: () => import('./vi.json'), en: () => import('./en.json') },
  account: { vi: () => import('./account/vi.json'), en: () => import('./account/en.json') },
  admin: { vi: () => import('./admin/vi.json'), en: () => import('./admin/en.json') },
} satisfies Record<string, Record<Locale, Bundle>>;

export type TranslationPart = keyof typeof parts;

const wanted = new Set<TranslationPart>(['flow']);
const loaded = new Set<string>();

async function ensureLoaded(locale: Locale): Promise<void> {
  await Promise.all(
    [...wanted].map(async (part) => {
      if (loaded.has(`${part}:${locale}`)) return;
      const bundle = await parts[part][locale]();
      // Every part shares the one namespace, so keys stay "account.profile.title" wherever they live.
      i18n.addResourceBundle(locale, 'translation', bundle.default, true, true);
      loaded.add(`${part}:${locale}`);
    }),
  );
}

/** The language being started in: requests sent before i18next has settled speak it too. */
let startLocale: Locale | null = null;

export async function initI18n(locale: Locale): Promise<typeof i18n> {
  startLocale = locale;
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

/** Loads a part's strings in the current language, and in every language switched to later. */
export async function loadTranslationPart(part: TranslationPart): Promise<void> {
  wanted.add(part);
  await ensureLoaded(currentLanguage());
}

/** Loads the strings of every part in use in `locale` without switching to it (the admin console's preview speaks either language). */
export async function preloadLanguage(locale: Locale): Promise<void> {
  await ensureLoaded(locale);
}

/** The language asked for last: while its strings load, an earlier request must not land after it. */
let latestRequest: Locale | null = null;

export async function changeLanguage(locale: Locale): Promise<void> {
  latestRequest = locale;
  await ensureLoaded(locale);
  // A user who picks English then Vietnamese gets Vietnamese, even when English's strings arrive last.
  if (latestRequest !== locale) return;
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

/** The language the screens show now (sent as Accept-Language). */
export function currentLanguage(): Locale {
  return asLocale(i18n.language) ?? startLocale ?? 'vi';
}

export { i18n };
