import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import type { LoginRequestInfo } from '@passgate/contract';
import { ApiError, resendCooldown } from '../../api/errors.ts';
import { socialApi } from '../../api/social.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { Notice } from '../../components/Notice.tsx';
import { PasswordField } from '../../components/PasswordField.tsx';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { flowErrorText } from '../flow/flow-validation.ts';
import { ResendButton } from '../flow/ResendButton.tsx';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import { OrSeparator } from './LoginCard.tsx';
import { flowHref } from './login-options.ts';
import { useAfterFirstFactor } from './use-after-first-factor.ts';
import { codeProblem } from './second-step.ts';
import { readSocialLinkState, type SocialLinkState } from './social-link-state.ts';

/**
 * /login/social-link?challenge=…, reached from a Google or Facebook sign-in whose e-mail belongs to
 * an existing account: the identity is linked only once the user proves that account, by its
 * password or by a code sent to its e-mail. Without the route state it returns to Login.
 */
export default function SocialLink() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = readSocialLinkState(location.state);
  if (!state) {
    return params.get('challenge') ? <Navigate to={flowHref('/login', params)} replace /> : <Navigate to="/error" replace state={{ status: 400 }} />;
  }
  const provider = t(`social.providers.${state.authorizer}`);
  return (
    <ClientFlowPage title={t('social.link.documentTitle')} heading={t('social.link.heading', { provider })} intro={t('social.link.intro', { email: state.email, provider })}>
      {(info) => <LinkForms info={info} state={state} />}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'resent'; attempt: number } | null;

function LinkForms({ info, state }: { info: LoginRequestInfo; state: SocialLinkState }) {
  const { t } = useTranslation();
  const byPassword = state.methods.includes('password');
  const [mode, setMode] = useState<'start' | 'code'>('start');
  const [destination, setDestination] = useState(state.email);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const attempts = useRef(0);
  const focusAfterRender = useFocusAfterRender();
  // Seconds before 'Resend code' may be pressed, when the code step opens on a code sent earlier.
  const [cooldown, setCooldown] = useState<number | undefined>();
  const fail = (error: unknown) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
  const linkBase = { challenge: info.challenge, linkToken: state.linkToken, clientId: info.client.clientId };
  const afterFirstFactor = useAfterFirstFactor(info.challenge);

  /** Links with the password or the code; success signs in, so the browser goes on to the relying party. */
  const link = async (proof: { password: string } | { code: string }) => {
    setBusy(true);
    setOutcome(null);
    try {
      afterFirstFactor(await socialApi.link({ ...linkBase, ...proof }), state.email);
    } catch (error) {
      setBusy(false);
      if (error instanceof ApiError && (error.code === 1017 || error.code === 1040)) {
        // A wrong password or code is said once, at its field, which takes the focus for a new try.
        setFieldError(flowErrorText(t, error));
        focusAfterRender('password' in proof ? passwordRef : codeRef);
        return;
      }
      fail(error);
    }
  };

  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setOutcome(null);
    const problem = password ? null : t('validation.required', { field: t('fields.password').toLocaleLowerCase() });
    setFieldError(problem);
    if (problem) return passwordRef.current?.focus();
    void link({ password });
  };

  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setOutcome(null);
    const problem = codeProblem(t, code);
    setFieldError(problem);
    if (problem) return codeRef.current?.focus();
    void link({ code });
  };

  const sendCode = async () => {
    const sent = await socialApi.sendLinkCode(linkBase);
    setDestination(sent.destination || state.email);
    return sent;
  };

  const startCode = async () => {
    if (busy) return;
    setBusy(true);
    setOutcome(null);
    try {
      await sendCode();
      setFieldError(null);
      setCode('');
      setCooldown(undefined);
      setMode('code');
    } catch (error) {
      // A code went out moments ago and is still good: its step, counting down the resend.
      const wait = resendCooldown(error);
      if (wait === null) return fail(error);
      setFieldError(null);
      setCode('');
      setCooldown(wait);
      setMode('code');
    } finally {
      setBusy(false);
    }
  };

  const usePassword = () => {
    setMode('start');
    setOutcome(null);
    setFieldError(null);
  };

  const alerts = (
    <>
      {outcome?.kind === 'resent' && <Notice key={outcome.attempt} severity="success" message={t('social.link.codeResent', { email: destination })} />}
      {outcome?.kind === 'failed' && <FlowErrorAlert key={outcome.attempt} error={outcome.error} />}
    </>
  );

  if (mode === 'code') {
    return (
      <Box component="form" noValidate onSubmit={submitCode}>
        {alerts}
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
          {t('social.link.codeSent', { email: destination })}
        </Typography>
        <CodeField id="social-link-code" label="activationCode" labelText={t('social.link.code')} value={code} onChange={setCode} inputRef={codeRef} error={fieldError} autoFocus />
        <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
          {busy ? t('social.link.submitting') : t('social.link.submit')}
        </ActionButton>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 0.5, mt: 1.5 }}>
          <ResendButton send={sendCode} cooldownSeconds={cooldown} onSent={() => setOutcome({ kind: 'resent', attempt: ++attempts.current })} onError={fail} />
          {byPassword && <ActionButton onClick={usePassword}>{t('social.link.usePassword')}</ActionButton>}
        </Box>
        <BackToLogin />
      </Box>
    );
  }

  return (
    <Box>
      {alerts}
      {byPassword && (
        <Box component="form" noValidate onSubmit={submitPassword}>
          <PasswordField
            id="social-link-password"
            name="password"
            label={t('fields.password')}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            inputRef={passwordRef}
            autoComplete="current-password"
            autoFocus
            required
            error={fieldError}
          />
          <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
            {busy ? t('social.link.submitting') : t('social.link.submit')}
          </ActionButton>
        </Box>
      )}
      {byPassword && <OrSeparator label={t('common.or')} />}
      <ActionButton variant="outlined" size="large" fullWidth disabled={busy} onClick={() => void startCode()} sx={{ overflowWrap: 'anywhere' }}>
        {t('social.link.sendCode', { email: state.email })}
      </ActionButton>
      <BackToLogin />
    </Box>
  );
}
