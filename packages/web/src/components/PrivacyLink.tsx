import { useTranslation } from 'react-i18next';
import { TextLink } from './TextLink.tsx';

/** The fixed 'Privacy Policy' link at the bottom right of the public screens. */
export function PrivacyLink() {
  const { t } = useTranslation();
  return (
    <TextLink
      to="/privacy"
      sx={{
        position: 'fixed',
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
