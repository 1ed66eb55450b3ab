import { useEffect, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode, OTP_LENGTH } from '@passgate/contract/rules';
import type { WebauthnCredentialList } from '@passgate/contract';
import { ApiError } from '../../api/errors.ts';
import { Notice } from '../../components/Notice.tsx';
import { RESEND_SECONDS, useCountdown } from '../../hooks/use-countdown.ts';
import { AccountErrorNotice } from '../account/AccountErrorNotice.tsx';
import { contactOf, useProfile } from '../account/use-profile.ts';
import { PROFILE_PATH, readDeviceCodeState, type DeviceCodePurpose, type DeviceNoticeState } from './device-state.ts';
import { DevicePageFrame } from './DevicePageFrame.tsx';
import { DEVICES_KEY, useDeviceApi } from './use-webauthn-api.ts';
import { CodeTextField } from '../../components/CodeTextField.tsx';


const CHALLENGE_TYPE = { activation: 'ACTIVATION_WEBAUTHN', deletion: 'DELETION_WEBAUTHN' } as const;

/**
 * /user/webauthn/activation and /user/webauthn/deletion (?challenge=…&webauthnCredentialId=…,
 * state deviceName): the read-only device name, the code that was sent, Resend after 60 s, then
 * Verify device (or Delete device). Without the name, the challenge or the id: Error 500.
 */
export function DeviceCodePage({ purpose }: { purpose: DeviceCodePurpose }) {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = readDeviceCodeState(location.state);
  const challenge = params.get('challenge');
  const credentialId = params.get('webauthnCredentialId');
  // Reached only from the device sign-in, which hands on all three; a typed or bookmarked address is
  // a request that is not valid (400), not a fault of the server.
  if (!state || !challenge || !credentialId) return <Navigate to="/error" replace state={{ status: 400 }} />;
  return (
    <DevicePageFrame title={t(`account.devices.${purpose}.title`)} intro={t(`account.devices.${purpose}.intro`)}>
      <CodeForm purpose={purpose} challenge={challenge} credentialId={credentialId} deviceName={state.deviceName} destination={state.destination} />
    </DevicePageFrame>
  );
}

interface FormProps {
  purpose: DeviceCodePurpose;
  challenge: string;
  credentialId: string;
  deviceName: string;
  destination?: string;
}

function CodeForm({ purpose, challenge, credentialId, deviceName, destination }: FormProps) {
  const { t } = useTranslation();
  const api = useDeviceApi();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const countdown = useCountdown();
  const { start } = countdown;
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [resent, setResent] = useState(0);
  const [busy, setBusy] = useState<'verify' | 'resend' | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  // The code went out just before this page opened: Resend waits its 60 s from arrival.
  useEffect(() => start(RESEND_SECONDS), [start]);

  // Where the code went: the page that sent it knows; after registration it went to the account's
  // e-mail, else its phone (the server's rule), which the profile shows.
  const sentTo = destination ?? contactOf(profile.data);
  const sentText = sentTo
    ? t('account.devices.codePage.codeSentTo', { count: OTP_LENGTH, destination: sentTo })
    : t('account.devices.codePage.codeSentToAccount', { count: OTP_LENGTH });

  const resend = async () => {
    if (busy) return;
    setBusy('resend');
    setFailure(null);
    try {
      const { resendAfter } = await api.resendCode(challenge);
      start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
      setResent((count) => count + 1);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = !code ? t('account.devices.codePage.codeRequired') : code.length === OTP_LENGTH ? null : t('validation.codeDigits', { count: OTP_LENGTH });
    setCodeError(problem);
    setFailure(null);
    setResent(0);
    if (problem) return codeRef.current?.focus();
    setBusy('verify');
    try {
      await api.resolveCode({ challengeType: CHALLENGE_TYPE[purpose], challenge, webauthnCredentialId: credentialId, code });
      // The list shows the change at once, then is read again.
      queryClient.setQueryData<WebauthnCredentialList>(DEVICES_KEY, (list) =>
        list && {
          items:
            purpose === 'activation'
              ? list.items.map((item) => (item.id === credentialId ? { ...item, active: true } : item))
              : list.items.filter((item) => item.id !== credentialId),
        },
      );
      void queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
      const notice: DeviceNoticeState = { deviceNotice: purpose === 'activation' ? 'activated' : 'deleted' };
      void navigate(PROFILE_PATH, { replace: true, state: notice });
    } catch (error) {
      setFailure(error);
      if (error instanceof ApiError && error.code === ErrorCode.CodeInvalid) {
        setCodeError(t('errors.1040'));
        codeRef.current?.focus();
      }
      setBusy(null);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      <AccountErrorNotice error={failure} />
      {resent > 0 && <Notice key={resent} severity="success" message={t('account.devices.codePage.codeResent')} />}
      <TextField
        id={`device-${purpose}-name`}
        label={t('account.devices.deviceName')}
        value={deviceName}
        fullWidth
        margin="none"
        slotProps={{ htmlInput: { readOnly: true } }}
      />
      <Typography variant="body2" color="textSecondary" sx={{ mt: 2, overflowWrap: 'anywhere' }}>
        {sentText}
      </Typography>
      <CodeTextField id={`device-${purpose}-code`} inputRef={codeRef} label={t(`account.devices.${purpose}.code`)} value={code} onChange={setCode} error={codeError} />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={busy !== null} color={purpose === 'deletion' ? 'error' : 'primary'} sx={{ mt: 2 }}>
        {busy === 'verify' ? t(`account.devices.${purpose}.submitting`) : t(`account.devices.${purpose}.submit`)}
      </Button>
      <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
        <Button onClick={() => void resend()} disabled={countdown.running || busy !== null}>
          {busy === 'resend' ? t('flow.sending') : countdown.running ? t('flow.resendIn', { seconds: countdown.secondsLeft }) : t('flow.resendCode')}
        </Button>
      </Box>
    </Box>
  );
}
