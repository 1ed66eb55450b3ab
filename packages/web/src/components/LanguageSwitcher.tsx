import Box from '@mui/material/Box';
import { ActionButton } from './ActionButton.tsx';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { Locale } from '@passgate/contract';
import { changeLanguage, currentLanguage } from '../i18n/i18n.ts';
import { LANGUAGES, asLocale, storeLocale } from '../i18n/language.ts';

/** vi / en; remembers the choice, and keeps a `locale` in the address in step with it. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const language = asLocale(i18n.language) ?? currentLanguage();

  const choose = (locale: Locale) => {
    if (locale === language) return;
    storeLocale(locale);
    if (params.has('locale')) {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set('locale', locale);
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    }
    void changeLanguage(locale);
  };

  return (
    <Box role="group" aria-label={t('common.language')} sx={{ display: 'inline-flex', gap: 0.5, p: 0.5, bgcolor: 'background.paper', borderRadius: 2, boxShadow: 1 }}>
      {LANGUAGES.map((locale) => (
        <ActionButton
          key={locale}
          lang={locale}
          // The name starts with the visible code, so voice control finds the button by what it shows (WCAG 2.5.3).
          aria-label={`${locale.toUpperCase()} – ${t(`languages.${locale}`)}`}
          aria-pressed={locale === language}
          variant={locale === language ? 'contained' : 'text'}
          size="small"
          onClick={() => choose(locale)}
          sx={{ minWidth: 40, minHeight: 32, px: 1, fontWeight: 600 }}
        >
          {locale.toUpperCase()}
        </ActionButton>
      ))}
    </Box>
  );
}
