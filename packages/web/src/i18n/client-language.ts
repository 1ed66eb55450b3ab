import { changeLanguage } from './i18n.ts';
import { queryLocale, storedLocale } from './language.ts';
import type { Locale } from '@passgate/contract';

/**
 * Applies the language a client screen (Login, Logout…) should speak, unless the address or the
 * user's stored choice already picked one (DESIGN.md section 8): the first of `preferred` that is
 * set — what the relying party asked for in this request, then the client's registered default.
 */
export async function applyClientLanguage(search: string, ...preferred: (Locale | null | undefined)[]): Promise<void> {
  const locale = preferred.find((candidate): candidate is Locale => Boolean(candidate));
  if (locale && !queryLocale(search) && !storedLocale()) await changeLanguage(locale);
}
