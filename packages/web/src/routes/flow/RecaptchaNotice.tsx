import { useEffect } from 'react';
import GlobalStyles from '@mui/material/GlobalStyles';
import Typography from '@mui/material/Typography';
import { Trans, useTranslation } from 'react-i18next';
import type { RecaptchaConfiguration } from '@passgate/contract';
import { ExternalLink } from '../../components/TextLink.tsx';
import { loadRecaptcha, recaptchaSiteKey } from '../../lib/recaptcha.ts';

const link = (href: string) => <ExternalLink href={href} target="_blank" rel="noopener noreferrer" sx={{ typography: 'caption' }} />;

/**
 * For a client with reCAPTCHA: loads Google's script when the screen opens (v3 scores what happens
 * on the page, and the token is then ready at once), and says the page is protected in place of
 * Google's floating badge, which would cover the 'Privacy Policy' link at the bottom right.
 */
export function RecaptchaNotice({ config }: { config: RecaptchaConfiguration }) {
  const { t } = useTranslation();
  const siteKey = recaptchaSiteKey(config);
  useEffect(() => {
    // A failure shows when the form is sent (the token is asked for again then).
    if (siteKey) loadRecaptcha(siteKey).catch(() => {});
  }, [siteKey]);
  if (!siteKey) return null;
  return (
    <Typography variant="caption" component="p" color="textSecondary" sx={{ mt: 2, textAlign: 'center' }}>
      <GlobalStyles styles={{ '.grecaptcha-badge': { visibility: 'hidden' } }} />
      <Trans
        i18nKey="flow.recaptchaNotice"
        t={t}
        components={{ privacy: link('https://policies.google.com/privacy'), terms: link('https://policies.google.com/terms') }}
      />
    </Typography>
  );
}
