import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../i18n/i18n.ts';
import { withLocale } from '../lib/locale-link.ts';
import { TextLink } from './TextLink.tsx';

/**
 * The 'Privacy Policy' link at the bottom right of the public screens: fixed from the sm
 * breakpoint up; on a phone it follows the content so it never covers a button or link. It opens
 * in a new tab, so reading it never loses a sign-in half-way (in-app browsers have no Back).
 */
export function PrivacyLink() {
  const { t } = useTranslation();
  return (
    <TextLink
      // A tab of its own, a new page load: the address carries the language being read.
      to={withLocale('/privacy', currentLanguage())}
      target="_blank"
      rel="noopener"
      sx={{
        position: { xs: 'static', sm: 'fixed' },
        alignSelf: 'flex-end',
        m: { xs: 1.5, sm: 0 },
        right: 16,
        bottom: 12,
        zIndex: 1,
        px: 1,
        py: 0.5,
        borderRadius: 1,
        bgcolor: 'rgba(255,255,255,0.85)',
      }}
    >
      {t('common.privacyPolicy')}
    </TextLink>
  );
}
