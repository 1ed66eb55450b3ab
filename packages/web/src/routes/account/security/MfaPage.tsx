import { useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import AppIcon from '@mui/icons-material/QrCode2';
import BackIcon from '@mui/icons-material/ArrowBack';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import SmsIcon from '@mui/icons-material/SmsOutlined';
import { useQueryClient } from '@tanstack/react-query';
import type { Profile, TokenType } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { Loading } from '../../../components/Loading.tsx';
import { Notice } from '../../../components/Notice.tsx';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { PROFILE_KEY, useProfile } from '../use-profile.ts';
import { useHeldPassword } from './held-password.tsx';
import { BackupCodesDialog } from './BackupCodesDialog.tsx';
import { BACKUP_CODES_KEY } from './BackupCodesRow.tsx';
import { AuthenticatorSetupDialog, CodeSetupDialog } from './SetupDialogs.tsx';
import { DangerConfirmDialog } from './DangerConfirmDialog.tsx';
import type { SecurityPageState } from './SecurityPage.tsx';

const METHODS: { type: TokenType; icon: ReactNode }[] = [
  { type: 'totp', icon: <AppIcon /> },
  { type: 'sms', icon: <SmsIcon /> },
  { type: 'email', icon: <EmailIcon /> },
];

/** Why a method cannot be set up yet: SMS needs a verified phone number, e-mail an address. */
export function methodBlocker(type: TokenType, profile: Profile): 'phoneFirst' | 'emailFirst' | null {
  if (type === 'sms' && !(profile.phoneNumber && profile.phoneNumberVerified)) return 'phoneFirst';
  if (type === 'email' && !(profile.email && profile.emailVerified)) return 'emailFirst';
  return null;
}

/**
 * /user/security/mfa and /user/security/authenticator: the three methods, the active one highlighted,
 * each with SET UP; OFF turns 2-step verification off. Needs the re-checked password.
 */
export function MfaPage() {
  const { t } = useTranslation();
  const { password } = useHeldPassword();
  const profile = useProfile();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [setup, setSetup] = useState<TokenType | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [activated, setActivated] = useState(false);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const [confirmingOff, setConfirmingOff] = useState(false);
  useDocumentTitle(`${t('account.security.mfa.title')} · ${t('app.name')}`);

  if (!password) return <Navigate to="/user/security" replace />;
  const data = profile.data;

  const turnOff = async () => {
    if (busy) return;
    setBusy(true);
    setFailure(null);
    setActivated(false);
    try {
      const updated = await api.mfaDisable({ password });
      queryClient.setQueryData(PROFILE_KEY, updated);
      queryClient.removeQueries({ queryKey: BACKUP_CODES_KEY });
      // 'Turned off' is the newest of the Security page's recent events.
      void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
      const state: SecurityPageState = { mfaTurnedOff: true };
      void navigate('/user/security', { state });
    } catch (error) {
      setConfirmingOff(false);
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const closeSetup = (done: boolean, codes?: string[]) => {
    setSetup(null);
    if (done) setActivated(true);
    if (codes) setBackupCodes(codes);
  };

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 3 }}>
        <IconButton component={Link} to="/user/security" aria-label={t('account.security.backToSecurity')}>
          <BackIcon />
        </IconButton>
        <Typography variant="h1" sx={{ flex: 1 }}>
          {t('account.security.mfa.title')}
        </Typography>
        {data?.enableMfa && (
          <Button variant="outlined" color="error" onClick={() => setConfirmingOff(true)} disabled={busy} aria-label={t('account.security.mfa.turnOff')}>
            {t('account.security.off')}
          </Button>
        )}
      </Box>
      <AccountErrorNotice error={failure ?? profile.error} />
      <DangerConfirmDialog
        open={confirmingOff}
        busy={busy}
        id="mfa-off"
        title={t('account.security.mfa.offConfirmTitle')}
        text={t('account.security.mfa.offConfirmText')}
        confirmLabel={t('account.security.mfa.offConfirmButton')}
        busyLabel={t('account.security.mfa.turningOff')}
        onCancel={() => setConfirmingOff(false)}
        onConfirm={() => void turnOff()}
      />
      {activated && <Notice severity="success" message={t('account.security.setup.activated')} />}
      {profile.isPending && <Loading />}
      {data && (
        <>
          <Typography color="textSecondary" sx={{ mb: 3 }}>
            {t(data.enableMfa ? 'account.security.mfa.onText' : 'account.security.mfa.offText')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
            {METHODS.map(({ type, icon }) => {
              const active = data.enableMfa && data.authenticatorType === type;
              const blocker = methodBlocker(type, data);
              const name = t(`account.security.mfa.methods.${type}.name`);
              return (
                <Card
                  key={type}
                  component="section"
                  aria-label={name}
                  variant="outlined"
                  sx={{ borderRadius: 3, display: 'flex', flexDirection: 'column', ...(active && { borderColor: 'primary.main', borderWidth: 2, bgcolor: 'action.selected' }) }}
                >
                  <CardContent sx={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
                    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'primary.main' }}>
                      {icon}
                      {active && <Chip size="small" color="primary" label={t('account.security.mfa.active')} />}
                    </Box>
                    <Typography variant="h3" component="h2" sx={{ fontSize: '1.1rem', fontWeight: 600 }}>
                      {name}
                    </Typography>
                    <Typography variant="body2" color="textSecondary">
                      {t(`account.security.mfa.methods.${type}.text`)}
                    </Typography>
                    {blocker && (
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {t(`account.security.mfa.${blocker}`)}
                      </Typography>
                    )}
                  </CardContent>
                  <CardActions sx={{ px: 2, pb: 2 }}>
                    <Button variant={active ? 'outlined' : 'contained'} disabled={blocker !== null} onClick={() => {
                        setActivated(false);
                        setSetup(type);
                      }} aria-label={t('account.security.mfa.setUpLabel', { method: name })}>
                      {t('account.security.mfa.setUp')}
                    </Button>
                  </CardActions>
                </Card>
              );
            })}
          </Box>
          {setup === 'totp' && <AuthenticatorSetupDialog password={password} onClose={closeSetup} />}
          {(setup === 'sms' || setup === 'email') && (
            <CodeSetupDialog kind={setup} password={password} target={(setup === 'sms' ? data.phoneNumber : data.email) ?? ''} onClose={closeSetup} />
          )}
          {backupCodes && <BackupCodesDialog codes={backupCodes} onClose={() => setBackupCodes(null)} />}
        </>
      )}
    </Box>
  );
}
