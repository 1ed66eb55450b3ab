import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import SecurityIcon from '@mui/icons-material/LockOutlined';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { AccountErrorNotice } from './AccountErrorNotice.tsx';
import { UserAvatar } from './UserAvatar.tsx';
import { contactOf, displayName, useProfile } from './use-profile.ts';

/** /user/dashboard: the avatar, the name and the e-mail or phone number. */
export function Dashboard() {
  const { t } = useTranslation();
  const profile = useProfile();
  useDocumentTitle(`${t('account.dashboard.heading')} · ${t('app.name')}`);
  const name = displayName(profile.data);

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography variant="h1" sx={{ mb: 3 }}>
        {t('account.dashboard.heading')}
      </Typography>
      <AccountErrorNotice error={profile.error} />
      {/* The cards' own texts paint with the page; only the user's details wait for /api/v1/me. */}
      <Card variant="outlined" sx={{ borderRadius: 3 }}>
        <CardContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5, py: 5 }}>
          {profile.isPending && <Loading />}
          {profile.data && (
            <>
              <UserAvatar name={name} src={profile.data.avatarUrl} size={96} alt={t('account.dashboard.avatarAlt', { name })} />
              <Typography variant="h2" component="p" sx={{ overflowWrap: 'anywhere' }}>
                {t('account.dashboard.welcome', { name })}
              </Typography>
              <Typography color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
                {contactOf(profile.data)}
              </Typography>
            </>
          )}
          <Typography variant="body2" color="textSecondary" sx={{ maxWidth: 480 }}>
            {t('account.dashboard.description')}
          </Typography>
        </CardContent>
      </Card>
      <Card variant="outlined" sx={{ borderRadius: 3, mt: 3 }}>
        <CardActionArea component={Link} to="/user/security" sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-start', gap: 2, p: 3 }}>
          <SecurityIcon color="primary" aria-hidden />
          <div>
            <Typography variant="h2" component="p">
              {t('account.security.heading')}
            </Typography>
            <Typography variant="body2" color="textSecondary">
              {t('account.security.dashboardText')}
            </Typography>
          </div>
        </CardActionArea>
      </Card>
    </Box>
  );
}
