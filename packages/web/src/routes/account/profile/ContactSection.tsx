import Divider from '@mui/material/Divider';
import MailIcon from '@mui/icons-material/MailOutlined';
import PhoneIcon from '@mui/icons-material/PhoneOutlined';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@passgate/contract';
import { ContactEditor } from './ContactEditor.tsx';
import { SectionCard } from './SectionCard.tsx';

/** Contact information: the e-mail and the phone number, each with its inline editor. */
export function ContactSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  return (
    <SectionCard id="contact-title" title={t('account.profile.contact.title')}>
      <ContactEditor kind="email" current={profile.email} icon={<MailIcon />} />
      <Divider />
      <ContactEditor kind="phoneNumber" current={profile.phoneNumber} icon={<PhoneIcon />} />
    </SectionCard>
  );
}
