import { useRef, useState, type FormEvent } from 'react';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import Box from '@mui/material/Box';
import { ActionButton } from '../../components/ActionButton.tsx';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ErrorCode, PHONE_LENGTH, USERNAME_MAX_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo, LoginResponse } from '@passgate/contract';
import { ApiError } from '../../api/errors.ts';
import { loginFlowApi } from '../../api/login-flow.ts';
import { ApiErrorAlert } from '../../components/ApiErrorAlert.tsx';
import { Notice } from '../../components/Notice.tsx';
import { FormField } from '../../components/FormField.tsx';
import { PasswordField } from '../../components/PasswordField.tsx';
import { TextLink } from '../../components/TextLink.tsx';
import { browser } from '../../lib/browser.ts';
import { flowHref, type LoginOptions } from './login-options.ts';
import { checkPassword, checkUsername, type FieldProblem } from './login-validation.ts';
import { usePasskeyAutofill } from './use-passkey-autofill.ts';
import type { PasswordExpiryState, UsernameState } from '../flow/flow-state.ts';

/** `passkey`: a sign-in with a passkey picked from the username field's autofill was refused. */
type Failure = { error: unknown; username: string; passkey?: true } | { somethingWrong: true };

interface Props {
  info: LoginRequestInfo;
  options: LoginOptions;
  /** Where 'Forgot password?' leads, when the client offers it. */
  forgotPasswordHref: string | null;
  /** Told when the user submits, so notices of an earlier step can give way. */
  onSubmitted?: () => void;
}

/** The username (e-mail and/or phone) and password form of the Login screen. */
export function PasswordLoginForm({ info, options, forgotPasswordHref, onSubmitted }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginHint = info.oidcContext.loginHint?.trim() || undefined;
  // After activation or a password update the username comes along in the route state.
  const arrivedAs = (useLocation().state as Partial<UsernameState> | null)?.username;
  const prefilled = loginHint ?? (typeof arrivedAs === 'string' ? arrivedAs : undefined);
  const [username, setUsername] = useState(prefilled ?? '');
  // SPEC: a login_hint fills the username and disables the field; 'Not you?' gives it back to whoever
  // is at the keyboard, as the relying party's guess may be wrong.
  const [hintSetAside, setHintSetAside] = useState(false);
  const hintHeld = loginHint !== undefined && !hintSetAside;
  const focusAfterRender = useFocusAfterRender();
  const [password, setPassword] = useState('');
  const [problems, setProblems] = useState<{ username?: FieldProblem; password?: FieldProblem }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  // Set at once, unlike `busy`: the second click of a double click comes before the re-render.
  const inFlight = useRef(false);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const passkeys = usePasskeyAutofill({
    enabled: options.webauthn,
    challenge: info.challenge,
    clientId: info.client.clientId,
    onPicked: () => {
      onSubmitted?.();
      setFailure(null);
      inFlight.current = true;
      setBusy(true);
    },
    // Stays disabled while the browser leaves for the relying party.
    onSignedIn: (url) => browser.assign(url),
    onError: (error) => {
      setFailure({ error, username: '', passkey: true });
      setAttempt((n) => n + 1);
      inFlight.current = false;
      setBusy(false);
    },
  });

  const labelKey = options.usernameLabel;
  const label = t(`fields.${labelKey}`);
  const phoneOnly = options.usernameKinds.length === 1 && options.usernameKinds[0] === 'phone';
  const emailOnly = options.usernameKinds.length === 1 && options.usernameKinds[0] === 'email';
  const describe = (problem: FieldProblem | undefined) => {
    if (!problem) return null;
    if (problem.kind === 'required') return t('validation.required', { field: t(`fields.${problem.field}`).toLocaleLowerCase() });
    if (problem.kind === 'usernameInvalid') return t('validation.usernameInvalid', { username: problem.username });
    if (problem.kind === 'passwordTooShort') return t('validation.passwordMinLength', { count: problem.count });
    return t('validation.passwordTooLong', { count: problem.count });
  };

  /** SPEC.md section 4, Login: password warning, then second factor, then the redirect. */
  const follow = (response: LoginResponse, name: string) => {
    const { mfaRequired, tokenType, mfaToken, rememberBrowser, redirectTo, passwordWarning } = response;
    const notRemembered = rememberBrowser === false ? { rememberBrowser } : {};
    if (passwordWarning) {
      const state: PasswordExpiryState = { mfaRequired: mfaRequired ?? false, tokenType, mfaToken, ...notRemembered, redirectTo, username: name, passwordWarning };
      void navigate(flowHref('/password/coming-expire', params), { state });
    } else if (mfaRequired) {
      void navigate(flowHref('/login/mfa', params), { state: { tokenType, mfaToken, ...notRemembered, username: name, challenge: info.challenge } });
    } else if (redirectTo) {
      browser.assign(redirectTo);
      return true;
    } else {
      setFailure({ somethingWrong: true });
      setAttempt((n) => n + 1);
    }
    return false;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    onSubmitted?.();
    const name = username.trim();
    const found = {
      username: checkUsername(name, labelKey, options.usernameKinds, info.client.usernamePolicy),
      password: checkPassword(password),
    };
    setProblems(found);
    if (found.username || found.password) {
      // A new try: the last answer's message goes, so only what is wrong now is on the page.
      setFailure(null);
      return (found.username ? usernameRef : passwordRef).current?.focus();
    }

    // The last attempt's message stays until this one is answered: taken away now, it would move
    // the button up under the pointer, and the second click of a double click would land on
    // whatever link came to be there.
    inFlight.current = true;
    setBusy(true);
    // The password decides now: the passkey request in the background is aborted.
    passkeys.stop();
    let leaving = false;
    try {
      const response = await loginFlowApi.passwordLogin({ challenge: info.challenge, username: name, password, clientId: info.client.clientId });
      // Leaving for the relying party or for the next screen, the page stays as it is (the button
      // disabled) until it is gone.
      leaving = follow(response, name);
    } catch (error) {
      setFailure({ error, username: name });
      // A new box for each answer, so the same message is announced (and focused) again.
      setAttempt((n) => n + 1);
      passkeys.restart();
    } finally {
      // Stay disabled while the browser leaves for the relying party.
      if (!leaving) {
        inFlight.current = false;
        setBusy(false);
      }
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {failure && 'error' in failure && <ApiErrorAlert key={attempt} error={failure.error} />}
      {failure && 'error' in failure && !failure.passkey && <FailureFollowUp error={failure.error} username={failure.username} options={options} />}
      {failure && 'somethingWrong' in failure && <Notice key={attempt} message={t('messages.somethingWrong')} />}
      <FormField
        id="login-username"
        name="username"
        label={label}
        value={username}
        onChange={(event) => setUsername(event.target.value)}
        inputRef={usernameRef}
        disabled={hintHeld}
        type={phoneOnly ? 'tel' : emailOnly ? 'email' : 'text'}
        // 'username webauthn' while the browser offers this site's passkeys in the field's autofill.
        autoComplete={passkeys.autoComplete}
        autoFocus={!prefilled}
        required
        labelAdornment={
          hintHeld ? (
            <ActionButton
              size="small"
              onClick={() => {
                setHintSetAside(true);
                setUsername('');
                setProblems((found) => ({ ...found, username: undefined }));
                focusAfterRender(usernameRef);
              }}
              sx={{ ml: 'auto', minHeight: 24, py: 0, flexShrink: 0, whiteSpace: 'nowrap' }}
            >
              {t('login.notYou')}
            </ActionButton>
          ) : undefined
        }
        error={describe(problems.username)}
        reserveMessageLine
        maxLength={phoneOnly ? PHONE_LENGTH : USERNAME_MAX_LENGTH}
        inputMode={phoneOnly ? 'numeric' : 'email'}
        autoCapitalize="none"
        spellCheck={false}
      />
      <PasswordField
        id="login-password"
        name="password"
        label={t('fields.password')}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        inputRef={passwordRef}
        autoComplete="current-password"
        autoFocus={Boolean(prefilled)}
        required
        error={describe(problems.password)}
        reserveMessageLine
      />
      {forgotPasswordHref && (
        <Box sx={{ textAlign: 'right', mt: 0.5 }}>
          <TextLink to={forgotPasswordHref}>{t('login.forgotPassword')}</TextLink>
        </Box>
      )}
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('login.submitting') : t('login.submit')}
      </ActionButton>
    </Box>
  );
}

/**
 * The way on after some refusals: 1011 (registered, not activated) offers the activation code
 * again, 1103 (password expired) only a password reset; each with the username filled in.
 */
function FailureFollowUp({ error, username, options }: { error: unknown; username: string; options: LoginOptions }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = error instanceof ApiError ? error.code : null;
  const followUp =
    code === ErrorCode.NotActivated && options.register
      ? { path: '/activation/resend', label: t('login.resendActivation') }
      : code === ErrorCode.PasswordExpired && options.forgotPassword
        ? { path: '/password/recover', label: t('login.resetPassword') }
        : null;
  if (!followUp) return null;
  const state: UsernameState = { username };
  return (
    <Box sx={{ mt: -1, mb: 2 }}>
      <TextLink to={flowHref(followUp.path, params)} state={state} sx={{ fontWeight: 700 }}>
        {followUp.label}
      </TextLink>
    </Box>
  );
}
