import { useRef, useState, type FormEvent, type RefObject } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { OTP_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { visitorApi } from '../../api/visitor.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Notice } from '../../components/Notice.tsx';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { flowHref } from '../login/login-options.ts';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import RequestGone from '../flow/RequestGone.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import { canResetPassword } from '../flow/flow-access.ts';
import { stateResendSeconds, stateUsername, type LoginArrivalState } from '../flow/flow-state.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { checkCode, checkConfirmPassword, checkNewPassword, describeProblem, type FlowField, type FlowProblems, refusedField } from '../flow/flow-validation.ts';
import { NewPasswordFields } from '../flow/NewPasswordFields.tsx';
import { RecaptchaNotice } from '../flow/RecaptchaNotice.tsx';
import { ResendButton } from '../flow/ResendButton.tsx';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';

const FIELD_ORDER: FlowField[] = ['code', 'password', 'confirmPassword'];

/** /password/update?challenge=… with the state {username}: the recovery code and the new password. */
export default function PasswordUpdate() {
  const { t } = useTranslation();
  const location = useLocation();
  const username = stateUsername(location.state);
  // Without a username in state (a bookmarked address) there is no recovery to continue: the way
  // back to the client, as for an expired request, rather than an error.
  if (!username) return <RequestGone />;
  return (
    <ClientFlowPage
      title={t('passwordUpdate.documentTitle')}
      heading={t('passwordUpdate.heading')}
      intro={t('passwordUpdate.instructions', { count: OTP_LENGTH, username })}
      allowed={canResetPassword}
    >
      {(info) => <PasswordUpdateForm info={info} username={username} />}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'resent'; attempt: number } | null;

function PasswordUpdateForm({ info, username }: { info: LoginRequestInfo; username: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const client = info.client;
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<FlowProblems>({});
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const attempts = useRef(0);
  const focusAfterRender = useFocusAfterRender();
  // Read once: the seconds the sending screen said are left (a code that went out moments ago), else the full minute.
  const [cooldown] = useState(() => stateResendSeconds(location.state));
  const refs: Partial<Record<FlowField, RefObject<HTMLInputElement | null>>> = {
    code: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    confirmPassword: useRef<HTMLInputElement>(null),
  };
  const describe = (field: FlowField) => describeProblem(t, problems[field]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setOutcome(null);
    const found: FlowProblems = {
      code: checkCode(code, 'recoveryCode'),
      password: checkNewPassword(password, client.tenant.passwordPolicy, 'newPassword'),
      confirmPassword: checkConfirmPassword(password, confirm),
    };
    setProblems(found);
    const invalid = FIELD_ORDER.find((field) => found[field]);
    if (invalid) return refs[invalid]?.current?.focus();

    setBusy(true);
    try {
      const token = await recaptchaToken(client.recaptchaConfiguration, 'password_reset');
      await visitorApi.resetPassword({ clientId: client.clientId, username, password, code, recaptchaToken: token });
      // SPEC.md section 4: 'Update Password successfully', shown by the Login screen.
      const state: LoginArrivalState = { notice: 'passwordUpdated', username };
      void navigate(flowHref('/login', params), { state });
    } catch (error) {
      setBusy(false);
      const field = refusedField(error, FIELD_ORDER);
      if (field) {
        // Said once, beside the field it is about (a reused password, a wrong code), which takes the focus.
        setProblems((previous) => ({ ...previous, [field]: { kind: 'server', error } }));
        focusAfterRender(refs[field]);
        return;
      }
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
    }
  };

  const resend = async () =>
    visitorApi.recoverPassword({
      clientId: client.clientId,
      username,
      recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'password_recover'),
    });

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {outcome?.kind === 'resent' && <Notice key={outcome.attempt} severity="success" message={t('messages.codeSent', { username })} />}
      {outcome?.kind === 'failed' && <FlowErrorAlert key={outcome.attempt} error={outcome.error} />}
      {/* For password managers: whose new password this is. */}
      <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
      <CodeField
        id="password-update-code"
        label="recoveryCode"
        value={code}
        onChange={setCode}
        inputRef={refs.code}
        error={describe('code')}
        autoFocus
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <ResendButton
          send={resend}
          cooldownSeconds={cooldown}
          onSent={() => setOutcome({ kind: 'resent', attempt: ++attempts.current })}
          onError={(error) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current })}
        />
      </Box>
      <NewPasswordFields
        idPrefix="password-update"
        policy={client.tenant.passwordPolicy}
        labels="newPassword"
        password={password}
        confirm={confirm}
        onPasswordChange={setPassword}
        onConfirmChange={setConfirm}
        passwordError={describe('password')}
        confirmError={describe('confirmPassword')}
        passwordRef={refs.password}
        confirmRef={refs.confirmPassword}
      />
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('passwordUpdate.submitting') : t('passwordUpdate.submit')}
      </ActionButton>
      <RecaptchaNotice config={client.recaptchaConfiguration} />
      <BackToLogin />
    </Box>
  );
}
