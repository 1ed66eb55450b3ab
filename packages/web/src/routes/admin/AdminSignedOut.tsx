import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { NetworkError } from '../../api/errors.ts';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { adminSession } from './admin-session.ts';

/** /admin/signed-out: the console's session ended (expired, or refused by the API); sign in again. */
export function AdminSignedOut() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  useDocumentTitle(t('admin.signedOut.heading'));
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      await adminSession.startSignIn('/admin/dashboard', { forget: true });
    } catch (cause) {
      setBusy(false);
      setError(new NetworkError('Cannot connect to Server', { cause }));
    }
  };
  return (
    <Box component="main" sx={{ maxWidth: 480, mx: 'auto', mt: { xs: 4, sm: 10 }, px: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="h1">{t('admin.signedOut.heading')}</Typography>
      <Typography color="textSecondary">{t('admin.signedOut.message')}</Typography>
      <ApiErrorAlert error={error} />
      <Button variant="contained" size="large" disabled={busy} onClick={() => void signIn()}>
        {t('admin.signedOut.signIn')}
      </Button>
    </Box>
  );
}
