import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TextLink } from '../../components/TextLink.tsx';
import { flowHref } from '../login/login-options.ts';

/** 'Back to the login page', keeping the challenge and the locale. */
export function BackToLogin() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  return (
    <Box sx={{ mt: 3, textAlign: 'center' }}>
      <TextLink to={flowHref('/login', params)}>{t('flow.backToLogin')}</TextLink>
    </Box>
  );
}
