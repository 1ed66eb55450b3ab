import { useEffect, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DEVICE_NAME_MAX, ErrorCode } from '@passgate/contract/rules';
import { ApiError, NetworkError } from '../../api/errors.ts';
import { Notice } from '../../components/Notice.tsx';
import { useCountdown } from '../../hooks/use-countdown.ts';
import { AccountErrorNotice } from '../account/AccountErrorNotice.tsx';
import { deviceCodePath, deviceNameProblem, PROFILE_PATH, type DeviceCodeState } from './device-state.ts';
import { DevicePageFrame } from './DevicePageFrame.tsx';
import { DEVICES_KEY, useDeviceApi } from './use-webauthn-api.ts';
import { isAlreadyRegisteredError, webauthnBrowser } from './webauthn-browser.ts';

/** How long 'Your browser does not support…' stays before the profile comes back. */
const UNSUPPORTED_REDIRECT_SECONDS = 5;

type Failure =
  | { kind: 'alreadyRegistered' }
  /** The browser's prompt was cancelled, timed out or failed. */
  | { kind: 'cancelled' }
  | { kind: 'api'; error: unknown };

/**
 * /user/webauthn/register: the device name, then the browser's create() with the server's options;
 * the device is stored inactive and its activation code sent, and the activation page follows.
 */
export function RegisterDevice() {
  const { t } = useTranslation();
  const [supported] = useState(() => webauthnBrowser.supported());
  return (
    <DevicePageFrame title={t('account.devices.registerPage.title')} intro={t('account.devices.registerPage.intro')}>
      {supported ? <RegisterForm /> : <Unsupported />}
    </DevicePageFrame>
  );
}

/** SPEC.md section 5: no public-key credentials in this browser: say so, then back to the profile. */
function Unsupported() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const countdown = useCountdown({ onExpire: () => void navigate(PROFILE_PATH, { replace: true }) });
  const { start } = countdown;
  useEffect(() => start(UNSUPPORTED_REDIRECT_SECONDS), [start]);
  return (
    <>
      <Notice message={t('messages.browserNotSupported')} />
      <Typography role="status" variant="body2" color="textSecondary">
        {t('account.devices.registerPage.leaving', { seconds: String(countdown.secondsLeft) })}
      </Typography>
    </>
  );
}

function RegisterForm() {
  const { t } = useTranslation();
  const api = useDeviceApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = deviceNameProblem(name);
    setNameError(
      problem === 'required' ? t('account.devices.registerPage.nameRequired') : problem === 'tooLong' ? t('account.devices.registerPage.nameTooLong', { count: DEVICE_NAME_MAX }) : null,
    );
    setFailure(null);
    if (problem) return nameRef.current?.focus();

    const deviceName = name.trim();
    setBusy(true);
    try {
      const { challenge, options } = await api.registrationOptions();
      const credential = await webauthnBrowser.register(options);
      const registered = await api.register(challenge, { deviceName, publickeyCredential: credential, registrationChallenge: options.challenge });
      // The new device is in the list (inactive) even if the user never enters the code.
      void queryClient.invalidateQueries({ queryKey: DEVICES_KEY });
      const state: DeviceCodeState = { deviceName, destination: registered.destination };
      void navigate(deviceCodePath('activation', registered.challenge, registered.webauthnCredentialId), { state });
    } catch (error) {
      setBusy(false);
      if (isAlreadyRegisteredError(error) || (error instanceof ApiError && error.code === ErrorCode.DeviceAlreadyRegistered)) setFailure({ kind: 'alreadyRegistered' });
      else if (error instanceof ApiError || error instanceof NetworkError) {
        setFailure({ kind: 'api', error });
        if (error instanceof ApiError && error.field === 'device_name') setNameError(t(`errors.${error.code === ErrorCode.RequiredField ? 1001 : 1002}`));
      } else setFailure({ kind: 'cancelled' });
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {failure?.kind === 'api' && <AccountErrorNotice error={failure.error} />}
      {failure?.kind === 'alreadyRegistered' && <Notice message={t('messages.deviceAlreadyRegistered')} />}
      {failure?.kind === 'cancelled' && <Notice message={t('account.devices.registerPage.cancelled')} />}
      <TextField
        id="device-name"
        inputRef={nameRef}
        label={t('account.devices.deviceName')}
        placeholder={t('account.devices.registerPage.placeholder')}
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        fullWidth
        autoFocus
        autoComplete="off"
        margin="none"
        error={Boolean(nameError)}
        helperText={nameError}
        disabled={busy}
      />
      <Button type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('account.devices.registerPage.submitting') : t('account.devices.registerPage.submit')}
      </Button>
    </Box>
  );
}
