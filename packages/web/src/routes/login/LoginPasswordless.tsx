import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { ErrorCode, OTP_LENGTH } from '@passgate/contract/rules';
import type { LoginRequestInfo } from '@passgate/contract';
import { ApiError, resendCooldown } from '../../api/errors.ts';
import { passwordlessApi } from '../../api/second-step.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Notice } from '../../components/Notice.tsx';
import { recaptchaToken } from '../../lib/recaptcha.ts';
import { BackToLogin } from '../flow/BackToLogin.tsx';
import { ClientFlowPage } from '../flow/ClientFlowPage.tsx';
import { CodeField } from '../flow/CodeField.tsx';
import { canUsePasswordless } from '../flow/flow-access.ts';
import { FlowErrorAlert } from '../flow/FlowErrorAlert.tsx';
import { checkFlowUsername, describeProblem, flowErrorText, refusedField, type FlowProblem } from '../flow/flow-validation.ts';
import { RecaptchaNotice } from '../flow/RecaptchaNotice.tsx';
import { ResendButton } from '../flow/ResendButton.tsx';
import { useFocusAfterRender } from '../flow/use-focus-after-render.ts';
import { UsernameField } from '../flow/UsernameField.tsx';
import { codeProblem } from './second-step.ts';
import { useAfterFirstFactor } from './use-after-first-factor.ts';

/** /login/passwordless?challenge=…: a phone number, then the SMS code (SPEC.md sections 2 and 4). */
export default function LoginPasswordless() {
  const { t } = useTranslation();
  return (
    <ClientFlowPage title={t('passwordless.documentTitle')} heading={t('passwordless.heading')} allowed={canUsePasswordless}>
      {(info) => <PasswordlessForm info={info} />}
    </ClientFlowPage>
  );
}

type Outcome = { kind: 'failed'; error: unknown; attempt: number } | { kind: 'sent'; attempt: number } | null;

function PasswordlessForm({ info }: { info: LoginRequestInfo }) {
  const { t } = useTranslation();
  const client = info.client;
  const afterFirstFactor = useAfterFirstFactor(info.challenge);
  const [step, setStep] = useState<'phone' | 'code'>('phone');
  const [phone, setPhone] = useState('');
  const [phoneProblem, setPhoneProblem] = useState<FlowProblem | undefined>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const phoneRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const focusAfterRender = useFocusAfterRender();
  // Seconds before 'Resend code' may be pressed, when the code step opens on a code sent earlier.
  const [cooldown, setCooldown] = useState<number | undefined>();
  const attempts = useRef(0);
  const fail = (error: unknown) => setOutcome({ kind: 'failed', error, attempt: ++attempts.current });

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    // A new try: the last answer's message goes, whatever this one brings.
    setOutcome(null);
    const phoneNumber = phone.trim();
    const found = checkFlowUsername(phoneNumber, 'phoneNumber', ['phone'], client.usernamePolicy);
    setPhoneProblem(found);
    if (found) return phoneRef.current?.focus();

    setBusy(true);
    const toCodeStep = (wait?: number) => {
      setPhone(phoneNumber);
      setCode('');
      setCodeError(null);
      setCooldown(wait);
      setStep('code');
    };
    try {
      await passwordlessApi.send({
        challenge: info.challenge,
        phoneNumber,
        clientId: client.clientId,
        recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'passwordless_send'),
      });
      toCodeStep();
    } catch (error) {
      // A code went to this phone moments ago and is still good: its step, counting down the resend.
      const wait = resendCooldown(error);
      if (wait !== null) {
        toCodeStep(wait);
      } else if (refusedField(error, ['username'])) {
        // Said once, beside the phone number, which takes the focus.
        setPhoneProblem({ kind: 'server', error });
        focusAfterRender(phoneRef);
      } else {
        fail(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const login = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setOutcome(null);
    const problem = codeProblem(t, code);
    setCodeError(problem);
    if (problem) return codeRef.current?.focus();

    setBusy(true);
    try {
      const answer = await passwordlessApi.login({
        challenge: info.challenge,
        phoneNumber: phone,
        code,
        clientId: client.clientId,
        recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'passwordless_login'),
      });
      // The second step's code goes elsewhere than this phone: the 2-step screen says 'your' e-mail.
      afterFirstFactor(answer, '');
    } catch (error) {
      setBusy(false);
      if (refusedField(error, ['code'])) {
        // Said once, beside the code, which takes the focus.
        setCodeError(flowErrorText(t, error));
        focusAfterRender(codeRef);
      } else {
        fail(error);
      }
    }
  };

  const resend = async () =>
    passwordlessApi.resend({
      challenge: info.challenge,
      phoneNumber: phone,
      clientId: client.clientId,
      recaptchaToken: await recaptchaToken(client.recaptchaConfiguration, 'passwordless_resend'),
    });

  const editPhone = () => {
    setStep('phone');
    setOutcome(null);
    setCode('');
    setCodeError(null);
    setPhoneProblem(undefined);
  };

  const alerts = (
    <>
      {outcome?.kind === 'sent' && <Notice key={outcome.attempt} severity="success" message={t('passwordless.codeResent', { phone })} />}
      {outcome?.kind === 'failed' &&
        // 1102 here: the account's 2-step codes go to this very phone, which cannot be both steps.
        (outcome.error instanceof ApiError && outcome.error.code === ErrorCode.NotAuthenticated ? (
          <Notice key={outcome.attempt} message={t('passwordless.usePassword')} />
        ) : (
          <FlowErrorAlert key={outcome.attempt} error={outcome.error} />
        ))}
    </>
  );

  if (step === 'phone') {
    return (
      <Box component="form" noValidate onSubmit={(event) => void send(event)}>
        {alerts}
        <UsernameField
          id="passwordless-phone"
          kinds={['phone']}
          value={phone}
          onChange={setPhone}
          inputRef={phoneRef}
          error={describeProblem(t, phoneProblem)}
          autoFocus
        />
        <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
          {busy ? t('flow.sending') : t('passwordless.sendCode')}
        </ActionButton>
        <RecaptchaNotice config={client.recaptchaConfiguration} />
        <BackToLogin />
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={(event) => void login(event)}>
      {alerts}
      <Box sx={{ mb: 2, color: 'text.secondary', fontSize: '0.875rem', overflowWrap: 'anywhere' }}>{t('passwordless.codeSent', { count: OTP_LENGTH, phone })}</Box>
      <FormField
        id="passwordless-sent-phone"
        name="username"
        label={t('fields.phoneNumber')}
        value={phone}
        readOnly
        endAdornment={
          <IconButton size="small" aria-label={t('passwordless.editPhone')} title={t('passwordless.editPhone')} onClick={editPhone}>
            <EditOutlined fontSize="small" />
          </IconButton>
        }
      />
      <CodeField
        id="passwordless-code"
        label="activationCode"
        labelText={t('passwordless.code')}
        value={code}
        onChange={setCode}
        inputRef={codeRef}
        error={codeError}
        autoFocus
      />
      <ActionButton type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ mt: 3 }}>
        {busy ? t('passwordless.submitting') : t('passwordless.submit')}
      </ActionButton>
      <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1.5 }}>
        <ResendButton send={resend} cooldownSeconds={cooldown} onSent={() => setOutcome({ kind: 'sent', attempt: ++attempts.current })} onError={fail} />
      </Box>
      <RecaptchaNotice config={client.recaptchaConfiguration} />
      <BackToLogin />
    </Box>
  );
}
