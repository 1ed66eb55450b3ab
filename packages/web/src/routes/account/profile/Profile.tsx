import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useProfile } from '../use-profile.ts';
import { AvatarSection } from './AvatarSection.tsx';
import { ContactSection } from './ContactSection.tsx';
import { DeleteAccountSection } from './DeleteAccountSection.tsx';
import { DevicesSection } from './DevicesSection.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import { ProfileNoticeProvider } from './profile-notice.tsx';

/**
 * /user/profile, Personal information (SPEC.md section 2): the avatar, the Profile card, Contact
 * information, My devices (when the tenant allows them) and Delete account.
 */
export default function Profile() {
  const { t } = useTranslation();
  const profile = useProfile();
  useDocumentTitle(`${t('account.profile.heading')} · ${t('app.name')}`);

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {t('account.profile.heading')}
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 3 }}>
        {t('account.profile.description')}
      </Typography>
      <AccountErrorNotice error={profile.error} />
      {profile.isPending && <Loading />}
      {profile.data && (
        <ProfileNoticeProvider>
          <AvatarSection profile={profile.data} />
          <ProfileForm profile={profile.data} />
          <ContactSection profile={profile.data} />
          <DevicesSection />
          <DeleteAccountSection profile={profile.data} />
        </ProfileNoticeProvider>
      )}
    </Box>
  );
}
