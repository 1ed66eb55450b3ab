import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ActionLink } from '../../components/ActionButton.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { currentLanguage } from '../../i18n/i18n.ts';
import { withLocale } from '../../lib/locale-link.ts';

/** /account-deleted: where the account area goes once DELETE /api/v1/me has removed the account. Public. */
export default function AccountDeleted() {
  const { t } = useTranslation();
  return (
    <PublicPage title={t('accountDeleted.documentTitle')}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h1" sx={{ mb: 1.5 }}>
          {t('accountDeleted.heading')}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {t('accountDeleted.message')}
        </Typography>
        <ActionLink variant="outlined" size="large" fullWidth href={withLocale('/user/dashboard', currentLanguage())}>
          {t('accountDeleted.signIn')}
        </ActionLink>
      </Box>
    </PublicPage>
  );
}
