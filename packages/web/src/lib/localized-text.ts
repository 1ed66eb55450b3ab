import type { LocalizedText } from '@passgate/contract';

/** A relying party's own text in the page's language when it gave one, else its plain text. */
export function localizedText(plain: string | undefined, byLanguage: LocalizedText | undefined, language: string): string | undefined {
  return (language === 'vi' || language === 'en' ? byLanguage?.[language] : undefined) ?? plain;
}
