import { useEffect, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { OTP_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { ApiError } from '../../api/errors.ts';
import { mfaLoginApi } from '../../api/second-step.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Notice } from '../../components/Notice.tsx';
import { browser } from '../../lib/browser.ts';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import type { MfaState } from '../flow/flow-state.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { ResendButton } from '../flow/ResendButton.tsx';
import { flowHref } from './login-options.ts';
import { codeProblem, readMfaState } from './second-step.ts';

/** /login/mfa with the state {tokenType, mfaToken, username, challenge}: the second step of a sign-in. */
export default function Login2Step() {
  const { t } = useTranslation();
  const location = useLocation();
  const state = readMfaState(location.state);
  // SPEC.md section 2: without mfaToken or tokenType it goes to Error 500.
  if (!state) return <Navigate to="/error" replace state={{ status: 500 }} />;
  const intro =
    state.tokenType === 'totp'
      ? t('login2Step.totpInstructions', { count: OTP_LENGTH })
      : // After Google or Facebook the screen knows no username: it says 'your' phone or e-mail.
        t(`login2Step.${state.tokenType === 'sms' ? 'sms' : 'email'}Instructions${state.username ? '' : 'Yours'}`, { count: OTP_LENGTH, username: state.username });
  return (
    <ClientFlowPage title={t('login2Step.documentTitle')} heading={t('login2Step.heading')} intro={intro}>
      {(info) => <SecondStepForm info={info} state={state} />}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'sent'; attempt: number } | null;

function SecondStepForm({ info, state }: { info: LoginRequestInfo; state: MfaState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const clientId = info.client.clientId;
  const { tokenType, mfaToken } = state;
  const sendsCode = tokenType !== 'totp';
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [expired, setExpired] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const attempts = useRef(0);

  const trigger = () => mfaLoginApi.triggerChallenge({ tokenType, mfaToken, clientId });

  // SMS and e-mail: the code is sent once on arrival (the Resend button then counts down 60 s).
  const triggered = useRef(false);
  useEffect(() => {
    if (!sendsCode || triggered.current) return;
    triggered.current = true;
    mfaLoginApi.triggerChallenge({ tokenType, mfaToken, clientId }).catch((error: unknown) => {
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
      if (error instanceof ApiError && error.code === 1026) setExpired(true);
    });
  }, [sendsCode, tokenType, mfaToken, clientId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || expired) return;
    const problem = codeProblem(t, code);
    setCodeError(problem);
    if (problem) return codeRef.current?.focus();

    setBusy(true);
    setOutcome(null);
    try {
      const { redirectTo } = await mfaLoginApi.login({ tokenType, mfaToken, otp: code, challenge: state.challenge || info.challenge, clientId });
      browser.assign(redirectTo);
    } catch (error) {
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
      if (error instanceof ApiError && error.code === 1040) setCodeError(t('errors.1040'));
      // The token or the code can no longer be used: only a new sign-in helps.
      if (error instanceof ApiError && error.code === 1026) setExpired(true);
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {outcome?.kind === 'sent' && <Notice key={outcome.attempt} severity="success" message={t('login2Step.codeResent')} />}
      {outcome?.kind === 'failed' && <FlowErrorAlert key={outcome.attempt} error={outcome.error} />}
      <CodeField
        id="mfa-code"
        label="activationCode"
        labelText={t('login2Step.code')}
        value={code}
        onChange={setCode}
        inputRef={codeRef}
        error={codeError}
        disabled={expired}
        autoFocus
      />
      {expired ? (
        <ActionButton variant="contained" size="large" fullWidth sx={{ mt: 3 }} onClick={() => void navigate(flowHref('/login', params))}>
          {t('flow.backToLogin')}
        </ActionButton>
      ) : (
        <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
          {busy ? t('login2Step.submitting') : t('login2Step.submit')}
        </ActionButton>
      )}
      {sendsCode && !expired && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
          <ResendButton
            send={trigger}
            onSent={() => setOutcome({ kind: 'sent', attempt: ++attempts.current })}
            onError={(error) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current })}
          />
        </Box>
      )}
      {!expired && <BackToLogin />}
    </Box>
  );
}
