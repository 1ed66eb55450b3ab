import { useState } from 'react';
import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { PublicPage } from '../../components/PublicPage.tsx';
import { NetworkError } from '../../api/errors.ts';

/** /alert/session-expired: Session expired, Please log in again, and a fresh sign-in of the account area. */
export default function SessionExpired() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const relogin = async () => {
    setBusy(true);
    setError(null);
    try {
      // Loaded only now: the account area's sign-in code is not part of the public screens.
      const { startSignIn } = await import('../account/auth.ts');
      await startSignIn('/user/dashboard', { forget: true });
    } catch (cause) {
      setBusy(false);
      setError(new NetworkError('Cannot connect to Server', { cause }));
    }
  };

  return (
    <PublicPage title={t('sessionExpired.documentTitle')}>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="h1" sx={{ mb: 1.5 }}>
          {t('sessionExpired.heading')}
        </Typography>
        <Typography color="textSecondary" sx={{ mb: 3 }}>
          {t('sessionExpired.message')}
        </Typography>
        <ApiErrorAlert error={error} />
        <ActionButton variant="contained" size="large" fullWidth disabled={busy} onClick={() => void relogin()}>
          {t('sessionExpired.relogin')}
        </ActionButton>
      </Box>
    </PublicPage>
  );
}
