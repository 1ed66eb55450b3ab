import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { OTP_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { visitorApi } from '../../api/visitor.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Notice } from '../../components/Notice.tsx';
import { browser } from '../../lib/browser.ts';
import { loginRequestKey } from '../../lib/login-request.ts';
import { forgetRequest } from '../../lib/request-cache.ts';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { flowHref } from '../login/login-options.ts';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import RequestGone from '../flow/RequestGone.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import { canRegister, accountUsernameKinds } from '../flow/flow-access.ts';
import { stateResendSeconds, stateUsername, type LoginArrivalState } from '../flow/flow-state.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { checkCode, describeProblem, refusedField, type FlowProblem } from '../flow/flow-validation.ts';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import { RecaptchaNotice } from '../flow/RecaptchaNotice.tsx';
import { ResendButton } from '../flow/ResendButton.tsx';
import { UsernameField } from '../flow/UsernameField.tsx';

const ACTIVATED_PAUSE_MS = 1500;

/** /activation?challenge=… with the state {username}: the code sent after registering, and its resend. */
export default function Activation() {
  const { t } = useTranslation();
  const location = useLocation();
  const username = stateUsername(location.state);
  // Without a username in state (a bookmarked address) there is no activation to continue: the way
  // back to the client, as for an expired request, rather than an error.
  if (!username) return <RequestGone />;
  return (
    <ClientFlowPage
      title={t('activation.documentTitle')}
      heading={t('activation.heading')}
      intro={t('activation.instructions', { count: OTP_LENGTH, username })}
      allowed={canRegister}
    >
      {(info) => <ActivationForm info={info} username={username} />}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'resent'; attempt: number } | { kind: 'activated' } | null;

function ActivationForm({ info, username }: { info: LoginRequestInfo; username: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const client = info.client;
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<FlowProblem | undefined>();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  // Each new message remounts its notice, which then takes the focus.
  const attempts = useRef(0);
  const focusAfterRender = useFocusAfterRender();
  // Read once: the seconds the sending screen said are left (a code that went out moments ago), else the full minute.
  const [cooldown] = useState(() => stateResendSeconds(location.state));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setOutcome(null);
    const found = checkCode(code, 'activationCode');
    setProblem(found);
    if (found) return codeRef.current?.focus();

    setBusy(true);
    try {
      const { redirectTo } = await visitorApi.confirm({ clientId: client.clientId, username, code, challenge: info.challenge });
      // SPEC.md section 4: 'Your account is now active', then on to the relying party or to Login.
      setOutcome({ kind: 'activated' });
      if (redirectTo) {
        // Long enough to read the message before the relying party takes over.
        window.setTimeout(() => browser.assign(redirectTo), ACTIVATED_PAUSE_MS);
      } else {
        const state: LoginArrivalState = { notice: 'accountActivated', username };
        // Login reads the sign-in request again rather than the copy this screen read: the request
        // may have expired while the code was on its way, and Login then says so at once instead
        // of showing a form that fails only once the password is typed.
        forgetRequest(loginRequestKey(info.challenge));
        void navigate(flowHref('/login', params), { state });
      }
    } catch (error) {
      setBusy(false);
      if (refusedField(error, ['code'])) {
        // Said once, beside the code, which takes the focus.
        setProblem({ kind: 'server', error });
        focusAfterRender(codeRef);
        return;
      }
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
    }
  };

  const resend = async () =>
    visitorApi.resendActivation({
      clientId: client.clientId,
      username,
      recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'activation_resend'),
    });

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {outcome?.kind === 'activated' && <Notice severity="success" message={t('messages.accountActivated')} />}
      {outcome?.kind === 'resent' && <Notice key={outcome.attempt} severity="success" message={t('messages.codeSent', { username })} />}
      {outcome?.kind === 'failed' && <FlowErrorAlert key={outcome.attempt} error={outcome.error} />}
      <UsernameField id="activation-username" kinds={accountUsernameKinds(client)} value={username} readOnly />
      <CodeField
        id="activation-code"
        label="activationCode"
        value={code}
        onChange={setCode}
        inputRef={codeRef}
        error={describeProblem(t, problem)}
        autoFocus
      />
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('activation.submitting') : t('activation.submit')}
      </ActionButton>
      <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
        <ResendButton
          send={resend}
          cooldownSeconds={cooldown}
          onSent={() => setOutcome({ kind: 'resent', attempt: ++attempts.current })}
          onError={(error) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current })}
        />
      </Box>
      <RecaptchaNotice config={client.recaptchaConfiguration} />
      <BackToLogin />
    </Box>
  );
}
