import { useEffect, useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { BACKUP_CODE_INPUT_MAX_LENGTH, OTP_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { ApiError, resendCooldown } from '../../api/errors.ts';
import { mfaLoginApi } from '../../api/second-step.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { CheckboxField } from '../../components/CheckboxField.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Notice } from '../../components/Notice.tsx';
import { browser } from '../../lib/browser.ts';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import RequestGone from '../flow/RequestGone.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import type { MfaState } from '../flow/flow-state.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { flowErrorText, refusedField } from '../flow/flow-validation.ts';
import { ResendButton } from '../flow/ResendButton.tsx';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import { flowHref } from './login-options.ts';
import { backupCodeProblem, codeProblem, readMfaState, secondStepMethods, type SecondStepMethod } from './second-step.ts';

/**
 * /login/mfa with the state {tokenType, mfaToken, username, challenge}: the second step of a
 * sign-in. 'Try another way' lists the account's method and its backup codes.
 */
export default function Login2Step() {
  const { t } = useTranslation();
  const location = useLocation();
  const state = readMfaState(location.state);
  const [method, setMethod] = useState<SecondStepMethod | null>(null);
  const [choosing, setChoosing] = useState(false);
  // Without mfaToken or tokenType (a bookmarked or reloaded-elsewhere address) there is no sign-in
  // to continue: the way back to the client, as for an expired request, rather than an error.
  if (!state) return <RequestGone />;
  const current = method ?? state.tokenType;
  const intro = choosing
    ? t('login2Step.chooseIntro')
    : current === 'backup_code'
      ? t('login2Step.backupInstructions')
      : current === 'totp'
        ? t('login2Step.totpInstructions', { count: OTP_LENGTH })
        : // After Google or Facebook the screen knows no username: it says 'your' phone or e-mail.
          t(`login2Step.${current === 'sms' ? 'sms' : 'email'}Instructions${state.username ? '' : 'Yours'}`, { count: OTP_LENGTH, username: state.username });
  return (
    <ClientFlowPage title={t('login2Step.documentTitle')} heading={t('login2Step.heading')} intro={intro}>
      {(info) => (
        <SecondStepForm
          info={info}
          state={state}
          method={current}
          choosing={choosing}
          onChoosing={setChoosing}
          onMethod={(chosen) => {
            setMethod(chosen);
            setChoosing(false);
          }}
        />
      )}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'sent'; attempt: number } | null;

interface FormProps {
  info: LoginRequestInfo;
  state: MfaState;
  method: SecondStepMethod;
  choosing: boolean;
  onChoosing: (choosing: boolean) => void;
  onMethod: (method: SecondStepMethod) => void;
}

/** 'Try another way': every way this account can pass the second step, as a list of buttons. */
function MethodChooser({ tokenType, onMethod, onBack }: { tokenType: MfaState['tokenType']; onMethod: (method: SecondStepMethod) => void; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
        {secondStepMethods(tokenType).map((option) => (
          <li key={option}>
            <ActionButton variant="outlined" size="large" fullWidth onClick={() => onMethod(option)}>
              {t(`login2Step.methods.${option}`)}
            </ActionButton>
          </li>
        ))}
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
        <ActionButton variant="text" onClick={onBack}>
          {t('common.back')}
        </ActionButton>
      </Box>
    </>
  );
}

// The component stays mounted while the way is changed, so the SMS or e-mail code is sent once only.
function SecondStepForm({ info, state, method, choosing, onChoosing, onMethod }: FormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const clientId = info.client.clientId;
  const { tokenType, mfaToken } = state;
  const sendsCode = tokenType !== 'totp';
  const backup = method === 'backup_code';
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const [expired, setExpired] = useState(false);
  // 'Don't ask again on this browser for N days', offered only when the tenant allows it and the
  // server would remember this account (never an administrator's).
  const rememberDays = state.rememberBrowser === false ? null : info.client.tenant.rememberBrowserDays;
  const [remember, setRemember] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const attempts = useRef(0);
  // Seconds before 'Resend code' may be pressed, when the server says a code went out moments ago.
  const [cooldown, setCooldown] = useState<number | undefined>();

  const trigger = () => mfaLoginApi.triggerChallenge({ tokenType, mfaToken, clientId });

  // SMS and e-mail: the code is sent once on arrival (the Resend button then counts down 60 s).
  const triggered = useRef(false);
  useEffect(() => {
    if (!sendsCode || triggered.current) return;
    triggered.current = true;
    mfaLoginApi.triggerChallenge({ tokenType, mfaToken, clientId }).catch((error: unknown) => {
      // A code sent moments ago (an earlier sign-in) is still good: nothing is wrong, the screen
      // already says a code was sent, and Resend counts down what is left of the minute.
      const wait = resendCooldown(error);
      if (wait !== null) return setCooldown(wait);
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
      if (error instanceof ApiError && error.code === 1026) setExpired(true);
    });
  }, [sendsCode, tokenType, mfaToken, clientId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || expired) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setOutcome(null);
    const problem = backup ? backupCodeProblem(t, code) : codeProblem(t, code);
    setCodeError(problem);
    if (problem) return codeRef.current?.focus();

    setBusy(true);
    const proof = backup ? { backupCode: code.trim() } : { otp: code };
    try {
      const rememberBrowser = rememberDays && remember ? { rememberBrowser: true } : {};
      const { redirectTo } = await mfaLoginApi.login({ tokenType, mfaToken, ...proof, ...rememberBrowser, challenge: state.challenge || info.challenge, clientId });
      browser.assign(redirectTo);
    } catch (error) {
      setBusy(false);
      if (refusedField(error, ['code'])) {
        // Said once, beside the field, which takes the focus; a wrong and an already used backup
        // code read alike, as the server answers them.
        setCodeError(backup ? t('login2Step.backupCodeInvalid') : flowErrorText(t, error));
        focusAfterRender(codeRef);
        return;
      }
      setOutcome({ kind: 'failed', error, attempt: ++attempts.current });
      // The token or the code can no longer be used: only a new sign-in helps.
      if (error instanceof ApiError && error.code === 1026) setExpired(true);
    }
  };

  const switchTo = (chosen: SecondStepMethod) => {
    if (chosen !== method) {
      setCode('');
      setCodeError(null);
      setOutcome(null);
    }
    onMethod(chosen);
  };

  if (choosing && !expired) return <MethodChooser tokenType={tokenType} onMethod={switchTo} onBack={() => onChoosing(false)} />;

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
      {outcome?.kind === 'sent' && <Notice key={outcome.attempt} severity="success" message={t('login2Step.codeResent')} />}
      {outcome?.kind === 'failed' && <FlowErrorAlert key={outcome.attempt} error={outcome.error} />}
      {backup ? (
        <FormField
          key="backup-code"
          id="mfa-backup-code"
          name="backup-code"
          label={t('login2Step.backupCode')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          inputRef={codeRef}
          error={codeError}
          disabled={expired}
          placeholder="xxxxx-xxxxx"
          maxLength={BACKUP_CODE_INPUT_MAX_LENGTH}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
        />
      ) : (
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
      )}
      {rememberDays && !expired ? (
        <CheckboxField id="mfa-remember-browser" checked={remember} onChange={setRemember}>
          {t('login2Step.rememberBrowser', { count: rememberDays })}
        </CheckboxField>
      ) : null}
      {expired ? (
        <ActionButton variant="contained" size="large" fullWidth sx={{ mt: 3 }} onClick={() => void navigate(flowHref('/login', params))}>
          {t('flow.backToLogin')}
        </ActionButton>
      ) : (
        <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
          {busy ? t('login2Step.submitting') : t('login2Step.submit')}
        </ActionButton>
      )}
      {sendsCode && !backup && !expired && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
          <ResendButton
            send={trigger}
            cooldownSeconds={cooldown}
            onSent={() => setOutcome({ kind: 'sent', attempt: ++attempts.current })}
            onError={(error) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current })}
          />
        </Box>
      )}
      {!expired && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
          <ActionButton variant="text" onClick={() => onChoosing(true)}>
            {t('login2Step.tryAnotherWay')}
          </ActionButton>
        </Box>
      )}
      {!expired && <BackToLogin />}
    </Box>
  );
}
