import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import BackIcon from '@mui/icons-material/ArrowBack';
import ShieldIcon from '@mui/icons-material/VerifiedUserOutlined';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';

/** /user/security/mfa/greeting: what 2-step verification is, and Get started. */
export function MfaGreeting() {
  const { t } = useTranslation();
  useDocumentTitle(`${t('account.security.mfa.title')} · ${t('app.name')}`);
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}>
        <IconButton component={Link} to="/user/security" aria-label={t('account.security.backToSecurity')}>
          <BackIcon />
        </IconButton>
        <Typography variant="h1">{t('account.security.mfa.title')}</Typography>
      </Box>
      <Card variant="outlined" sx={{ borderRadius: 3 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 2, py: 5 }}>
          <ShieldIcon color="primary" sx={{ fontSize: 64 }} aria-hidden />
          <Typography variant="h2" component="p">
            {t('account.security.greeting.heading')}
          </Typography>
          <Typography color="textSecondary" sx={{ maxWidth: 480 }}>
            {t('account.security.greeting.text')}
          </Typography>
          <Button variant="contained" component={Link} to="/user/security/authenticator">
            {t('account.security.greeting.start')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
