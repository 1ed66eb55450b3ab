import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, PHONE_LENGTH, EMAIL_MAX_LENGTH, isEmail, isPhoneNumber } from '@passgate/contract/rules';
import type { CodeSentResponse, Profile } from '@passgate/contract';
import { RESEND_SECONDS, useCountdown } from '../../../hooks/use-countdown.ts';
import { CONTENT_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { PROFILE_KEY } from '../use-profile.ts';
import { CodeTextField } from '../../../components/CodeTextField.tsx';
import Alert from '@mui/material/Alert';
import { ApiError, resendCooldown } from '../../../api/errors.ts';
import { startSignIn } from '../auth.ts';
import { useProfileNotice } from './profile-notice.tsx';

export type ContactKind = 'email' | 'phoneNumber';

type Step = 'view' | 'enter' | 'code';

const LABELS = {
  email: { change: 'changeEmail', add: 'addEmail', entry: 'newEmail', same: 'sameEmail' },
  phoneNumber: { change: 'changePhoneNumber', add: 'addPhoneNumber', entry: 'newPhoneNumber', same: 'samePhoneNumber' },
} as const;


/**
 * The two-step inline editor of the e-mail or the phone number (SPEC.md section 4): enter the new
 * value and Next (a code is sent to it), then the code and Save. The address changes only once its
 * code is confirmed; the profile query then holds the new one.
 */
export function ContactEditor({ kind, current, icon }: { kind: ContactKind; current: string | null; icon: ReactNode }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const countdown = useCountdown();
  const [step, setStep] = useState<Step>('view');
  const [value, setValue] = useState('');
  const [code, setCode] = useState('');
  const [valueError, setValueError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const notice = useProfileNotice(`contact-${kind}`);
  const [busy, setBusy] = useState<'send' | 'save' | null>(null);
  // Past a while after signing in, sending a code needs the password (or, without one, a new sign-in).
  const [askPassword, setAskPassword] = useState(false);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [signInAgain, setSignInAgain] = useState(false);
  const valueRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const labels = LABELS[kind];
  const fieldLabel = t(`fields.${kind}`);
  const idPrefix = `contact-${kind}`;

  const proof = askPassword && password ? { password } : {};
  const sendCode = (target: string): Promise<CodeSentResponse> =>
    kind === 'email' ? api.verifyEmail({ email: target, ...proof }) : api.verifyPhoneNumber({ phoneNumber: target, ...proof });

  /** The server wants more than the token: ask for the password beside the field, or offer a new sign-in. Answers whether it did. */
  const askForProof = (error: unknown): boolean => {
    if (!(error instanceof ApiError)) return false;
    if (error.field === 'password' && (error.code === 1001 || error.code === 1017)) {
      setAskPassword(true);
      setPasswordError(error.code === 1017 ? t('account.profile.contact.wrongPassword') : askPassword ? t('account.profile.contact.confirmPassword') : null);
      window.setTimeout(() => passwordRef.current?.focus());
      return true;
    }
    if (error.status === 403 && error.code === 1100) {
      setSignInAgain(true);
      return true;
    }
    return false;
  };
  const confirmCode = (target: string, otp: string): Promise<Profile> =>
    kind === 'email' ? api.updateEmail({ email: target, code: otp }) : api.updatePhoneNumber({ phoneNumber: target, code: otp });

  const reset = (next: Step) => {
    setStep(next);
    if (next === 'view') {
      setAskPassword(false);
      setPassword('');
      setSignInAgain(false);
    }
    setPasswordError(null);
    setValueError(null);
    setCodeError(null);
    setFailure(null);
    notice.clear();
    setCode('');
    if (next !== 'code') countdown.stop();
  };

  const start = () => {
    setValue('');
    reset('enter');
  };

  const problemOf = (target: string): string | null => {
    if (!target) return t('validation.required', { field: fieldLabel.toLocaleLowerCase() });
    if (!(kind === 'email' ? isEmail(target) : isPhoneNumber(target))) return t('validation.usernameInvalid', { username: target });
    const same = kind === 'email' ? target.toLowerCase() === current?.toLowerCase() : target === current;
    return same ? t(`account.profile.contact.${labels.same}`) : null;
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const target = value.trim();
    const problem = problemOf(target);
    setValueError(problem);
    setFailure(null);
    // Whatever notice the page shows gives way to this field's message.
    if (problem) notice.dismiss();
    if (problem) return valueRef.current?.focus();
    if (askPassword && !password) {
      setPasswordError(t('account.profile.contact.confirmPassword'));
      return passwordRef.current?.focus();
    }
    setBusy('send');
    try {
      const { resendAfter } = await sendCode(target);
      setValue(target);
      reset('code');
      countdown.start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
    } catch (error) {
      notice.dismiss();
      // Refused because a code went to this very address less than a minute ago (the editor was
      // closed and opened again, or another tab): that code is still good, so its field and what
      // is left of the minute, not an error.
      const wait = resendCooldown(error);
      if (wait !== null) {
        setValue(target);
        reset('code');
        countdown.start(wait);
      } else if (!askForProof(error)) setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const resend = async () => {
    if (busy) return;
    setBusy('send');
    setFailure(null);
    notice.clear();
    try {
      const { resendAfter } = await sendCode(value);
      countdown.start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
      notice.show('info', t('account.profile.contact.codeResent', { value }));
    } catch (error) {
      notice.dismiss();
      // A code went out moments ago (from another tab): the one on its way is as good, so only the
      // countdown of what is left.
      const wait = resendCooldown(error);
      if (wait !== null) countdown.start(wait);
      // The password is asked for on the first step: go back there for it.
      else if (askForProof(error)) setStep('enter');
      else setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = code.length === OTP_LENGTH ? null : t('validation.codeDigits', { count: OTP_LENGTH });
    setCodeError(problem);
    setFailure(null);
    if (problem) notice.dismiss();
    if (problem) return codeRef.current?.focus();
    setBusy('save');
    try {
      const profile = await confirmCode(value, code);
      queryClient.setQueryData(PROFILE_KEY, profile);
      reset('view');
      notice.show('success', t('account.profile.updated'));
    } catch (error) {
      notice.dismiss();
      setFailure(error);
    } finally {
      setBusy(null);
    }
  };

  const actionLabel = t(`account.profile.contact.${current ? labels.change : labels.add}`);

  return (
    <Box sx={{ py: 1.5 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <Box aria-hidden sx={{ color: 'text.secondary', display: 'flex' }}>
          {icon}
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" color="textSecondary">
            {fieldLabel}
          </Typography>
          <Typography sx={{ overflowWrap: 'anywhere', color: current ? 'text.primary' : 'text.secondary' }}>{current || t('account.profile.contact.notAdded')}</Typography>
        </Box>
        {step === 'view' && (
          <Button onClick={start} aria-label={actionLabel} sx={{ flexShrink: 0 }}>
            {current ? t('account.profile.contact.changeButton') : t('account.profile.contact.addButton')}
          </Button>
        )}
      </Box>
      {step === 'view' && notice.active && <Box sx={{ mt: 1.5 }}>{notice.slot}</Box>}
      {step === 'enter' && (
        <Box component="form" noValidate onSubmit={(event) => void next(event)} aria-label={actionLabel} sx={{ mt: 1, maxWidth: CONTENT_MAX_WIDTH }}>
          <AccountErrorNotice error={failure} />
          <TextField
            id={`${idPrefix}-value`}
            inputRef={valueRef}
            label={t(`account.profile.contact.${labels.entry}`)}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            type={kind === 'email' ? 'email' : 'tel'}
            autoComplete={kind === 'email' ? 'email' : 'tel'}
            autoFocus
            required
            fullWidth
            margin="normal"
            error={Boolean(valueError)}
            helperText={valueError}
            slotProps={{ htmlInput: { maxLength: kind === 'email' ? EMAIL_MAX_LENGTH : PHONE_LENGTH, inputMode: kind === 'email' ? 'email' : 'numeric', spellCheck: false } }}
          />
          {askPassword && (
            <TextField
              id={`${idPrefix}-password`}
              inputRef={passwordRef}
              label={t('account.profile.contact.passwordLabel')}
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              type="password"
              autoComplete="current-password"
              required
              fullWidth
              margin="normal"
              error={Boolean(passwordError)}
              helperText={passwordError ?? t('account.profile.contact.confirmPassword')}
            />
          )}
          {signInAgain && (
            <Alert
              severity="info"
              sx={{ mt: 1 }}
              action={
                <Button color="inherit" size="small" onClick={() => void startSignIn(`${window.location.pathname}${window.location.search}`, { reauthenticate: true })}>
                  {t('account.profile.contact.signInAgainButton')}
                </Button>
              }
            >
              {t('account.profile.contact.signInAgain')}
            </Alert>
          )}
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, mt: 1 }}>
            <Button onClick={() => reset('view')} disabled={busy !== null}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={busy !== null} sx={{ minWidth: 112 }}>
              {busy === 'send' ? t('flow.sending') : t('common.next')}
            </Button>
          </Box>
        </Box>
      )}
      {step === 'code' && (
        <Box component="form" noValidate onSubmit={(event) => void save(event)} aria-label={actionLabel} sx={{ mt: 1, maxWidth: CONTENT_MAX_WIDTH }}>
          <AccountErrorNotice error={failure} />
          {notice.slot}
          <TextField
            id={`${idPrefix}-target`}
            label={fieldLabel}
            value={value}
            fullWidth
            margin="normal"
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <CodeTextField
            id={`${idPrefix}-code`}
            inputRef={codeRef}
            label={t('account.profile.contact.code')}
            value={code}
            onChange={setCode}
            error={codeError}
            helperText={t('account.profile.contact.codeSentTo', { value })}
          />
          {/* Resend on the left; Cancel and Save together on the right, on a line of their own when narrow. */}
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 1 }}>
            <Button onClick={() => void resend()} disabled={countdown.running || busy !== null} sx={{ mr: 'auto' }}>
              {busy === 'send' ? t('flow.sending') : countdown.running ? t('flow.resendIn', { seconds: countdown.secondsLeft }) : t('flow.resendCode')}
            </Button>
            <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
              <Button onClick={() => reset('view')} disabled={busy !== null}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" variant="contained" disabled={busy !== null} sx={{ minWidth: 112 }}>
                {busy === 'save' ? t('common.saving') : t('common.save')}
              </Button>
            </Box>
          </Box>
        </Box>
      )}
    </Box>
  );
}
