import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import ChevronIcon from '@mui/icons-material/ChevronRight';
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import type { Profile } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { Notice } from '../../../components/Notice.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { BackupCodesRow } from './BackupCodesRow.tsx';
import { RememberedBrowsersItem } from './RememberedBrowsersItem.tsx';
import { SectionCard } from '../profile/SectionCard.tsx';
import { useProfile } from '../use-profile.ts';
import { PasswordCheckDialog } from './PasswordCheckDialog.tsx';
import { RecentSecurityEvents } from './RecentSecurityEvents.tsx';
import { ActiveSessions } from './ActiveSessions.tsx';
import { ChangePasswordItem } from './ChangePasswordItem.tsx';

/** The route state the 2-step page leaves behind: what it just changed. */
export interface SecurityPageState {
  mfaTurnedOff?: boolean;
}

type IssueKey = 'mfaOff' | 'emailUnverified' | 'phoneUnverified';

/** What needs the user's attention, read from the profile (the recent security events come from the audit table). */
export function securityIssues(profile: Profile): IssueKey[] {
  const issues: IssueKey[] = [];
  if (profile.registrationMethod === 'password' && !profile.enableMfa) issues.push('mfaOff');
  if (profile.email && !profile.emailVerified) issues.push('emailUnverified');
  if (profile.phoneNumber && !profile.phoneNumberVerified) issues.push('phoneUnverified');
  return issues;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, width: '100%' }}>
      <Typography sx={{ flex: '0 0 200px', fontWeight: 500 }}>{label}</Typography>
      {/* Not drawn between flex items, but it keeps the label and the value two words in a name computed from the row's text. */}{' '}
      <Box sx={{ flex: 1, minWidth: 0, color: 'text.secondary' }}>{children}</Box>
    </Box>
  );
}

/** /user/security: security issues, then the sign-in settings (password, 2-step verification, registration method). */
export function SecurityPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [checking, setChecking] = useState(false);
  const turnedOff = (useLocation().state as SecurityPageState | null)?.mfaTurnedOff === true;
  useDocumentTitle(`${t('account.security.heading')} · ${t('app.name')}`);
  const data = profile.data;
  const issues = data ? securityIssues(data) : [];
  const mfaSupported = data?.registrationMethod === 'password';

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography variant="h1" sx={{ mb: 3 }}>
        {t('account.security.heading')}
      </Typography>
      <AccountErrorNotice error={profile.error} />
      {turnedOff && !checking && <Notice severity="success" message={t('account.security.mfa.turnedOff')} />}
      {profile.isPending && <Loading />}
      {data && (
        <>
          <SectionCard id="security-issues" title={t('account.security.issues.title')} description={t('account.security.issues.description')}>
            {issues.length === 0 ? (
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                <CheckIcon color="success" aria-hidden />
                <Typography>{t('account.security.issues.none')}</Typography>
              </Box>
            ) : (
              <List disablePadding>
                {issues.map((issue) => (
                  <ListItem key={issue} disableGutters>
                    <ListItemIcon>
                      <WarningIcon color="warning" aria-hidden />
                    </ListItemIcon>
                    <ListItemText primary={t(`account.security.issues.${issue}.title`)} secondary={t(`account.security.issues.${issue}.text`)} />
                  </ListItem>
                ))}
              </List>
            )}
            <RecentSecurityEvents />
          </SectionCard>
          <SectionCard id="security-signin" title={t('account.security.signin.title')} description={t('account.security.signin.description')}>
            <List disablePadding>
              {/* Rows are separated by their own bottom border: a Divider would be a separator, not an item, inside the list. */}
              <ListItem disableGutters divider sx={{ py: 1.5 }}>
                <Row label={t('account.security.signin.password')}>
                  <span aria-label={t('account.security.signin.passwordHidden')}>••••••••</span>
                </Row>
              </ListItem>
              <ChangePasswordItem />
              {mfaSupported ? (
                <ListItem disablePadding divider>
                  {/* Named by what it shows ('2-Step Verification' and its state), so voice control finds it by the visible words. */}
                  <ListItemButton onClick={() => setChecking(true)} sx={{ px: 0, py: 1.5 }}>
                    <Row label={t('account.security.signin.mfa')}>
                      <Chip size="small" color={data.enableMfa ? 'success' : 'default'} label={t(data.enableMfa ? 'account.security.on' : 'account.security.off')} />
                    </Row>
                    <ChevronIcon aria-hidden sx={{ color: 'text.secondary' }} />
                  </ListItemButton>
                </ListItem>
              ) : (
                <ListItem disableGutters divider sx={{ py: 1.5 }}>
                  <Row label={t('account.security.signin.mfa')}>{t('account.security.signin.mfaUnsupported')}</Row>
                </ListItem>
              )}
              {mfaSupported && data.enableMfa && (
                <ListItem disableGutters divider sx={{ py: 1.5 }}>
                  <BackupCodesRow />
                </ListItem>
              )}
              {mfaSupported && data.enableMfa && <RememberedBrowsersItem />}
              <ListItem disableGutters sx={{ py: 1.5 }}>
                <Row label={t('account.security.signin.registrationMethod')}>{t(`account.security.methods.${data.registrationMethod}`)}</Row>
              </ListItem>
            </List>
          </SectionCard>
          <ActiveSessions />
          {mfaSupported && <PasswordCheckDialog open={checking} onClose={() => setChecking(false)} />}
        </>
      )}
    </Box>
  );
}
