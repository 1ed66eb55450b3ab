import { useEffect, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import type { LoginRequestInfo } from '@passgate/contract';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { checkFlowUsername, describeProblem, refusedField, type FlowProblem } from '../flow/flow-validation.ts';
import { UsernameField } from '../flow/UsernameField.tsx';
import { canUseDeviceLogin } from './device-access.ts';
import { QrCodeDialog } from './QrCodeDialog.tsx';
import { useDeviceLogin } from './use-device-login.ts';

const KINDS = ['email', 'phone'] as const;

/** /login/webauthn?challenge=…: log in with a device, on this browser or, by QR code, on another one. */
export default function LoginWebAuthn() {
  const { t } = useTranslation();
  return (
    <ClientFlowPage title={t('deviceLogin.documentTitle')} heading={t('deviceLogin.documentTitle')} intro={t('deviceLogin.intro')} allowed={canUseDeviceLogin}>
      {(info) => <DeviceLoginForm info={info} />}
    </ClientFlowPage>
  );
}

function DeviceLoginForm({ info }: { info: LoginRequestInfo }) {
  const { t } = useTranslation();
  const client = info.client;
  const [username, setUsername] = useState(info.oidcContext.loginHint?.trim() ?? '');
  const [problem, setProblem] = useState<FlowProblem | undefined>();
  const usernameRef = useRef<HTMLInputElement>(null);
  const login = useDeviceLogin({ clientId: client.clientId, oauthChallenge: info.challenge });
  const { phase, failure } = login;
  const busy = phase.kind !== 'form';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const value = username.trim();
    const found = checkFlowUsername(value, 'emailOrPhoneNumber', KINDS, client.usernamePolicy);
    setProblem(found);
    if (found) {
      // A new try: the last answer's message goes, so only what is wrong now is on the page.
      login.clearFailure();
      return usernameRef.current?.focus();
    }
    setUsername(value);
    void login.start(value);
  };

  // A refusal about the username (1014) is said once, beside the field, which takes the focus.
  const failedError = failure?.kind === 'error' ? failure.error : null;
  const aboutUsername = failedError != null && refusedField(failedError, ['username']) !== null;
  const fieldProblem = problem ?? (aboutUsername ? { kind: 'server' as const, error: failedError } : undefined);
  useEffect(() => {
    if (aboutUsername) usernameRef.current?.focus();
  }, [aboutUsername, failure]);

  if (phase.kind === 'redirecting') return <Loading label={t('common.redirecting')} />;

  return (
    <Box component="form" noValidate onSubmit={submit}>
      {failure?.kind === 'error' && !aboutUsername && <FlowErrorAlert key={failure.attempt} error={failure.error} />}
      {failure?.kind === 'expired' && <Notice key={failure.attempt} message={t('messages.requestExpired')} />}
      {failure?.kind === 'ended' && <Notice key={failure.attempt} message={t('deviceLogin.ended')} />}
      <UsernameField
        id="device-login-username"
        kinds={KINDS}
        value={username}
        onChange={setUsername}
        inputRef={usernameRef}
        error={describeProblem(t, fieldProblem)}
        readOnly={busy}
        autoFocus
      />
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('deviceLogin.submitting') : t('login.submit')}
      </ActionButton>
      <BackToLogin />
      {phase.kind === 'waiting' && phase.qr && <QrCodeDialog request={phase.request} secondsLeft={login.secondsLeft} onCancel={login.cancel} />}
    </Box>
  );
}
