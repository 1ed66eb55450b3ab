import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { deletionCodeRecipientOf, deletionConfirmationOf, ErrorCode, isDeletionConfirmed, OTP_LENGTH, PASSWORD_MAX_LENGTH } from '@passgate/contract/rules';
import type { Profile } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { ApiError, resendCooldown } from '../../../api/errors.ts';
import { CodeTextField } from '../../../components/CodeTextField.tsx';
import { RESEND_SECONDS, useCountdown } from '../../../hooks/use-countdown.ts';
import { CONTENT_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';

type Field = 'password' | 'code' | 'confirmation';

interface Props {
  profile: Profile;
  open: boolean;
  onClose: () => void;
  /** Called once the account is gone. */
  onDeleted: () => Promise<void>;
}

/**
 * The deletion dialog: the password (or, for an account without one, a code sent to its verified
 * address) and the account's e-mail or phone typed out; Delete stays disabled until it matches.
 * The server checks both again. A refusal about a field shows beside that field only; anything
 * else shows once, above the form.
 */
export function DeleteAccountDialog({ profile, open, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const countdown = useCountdown();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [typed, setTyped] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState<'send' | 'delete' | 'done' | null>(null);
  // A second click before the first call's state reaches the button must not send a second call.
  const inFlight = useRef(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const confirmationRef = useRef<HTMLInputElement>(null);
  const focus = (field: Field) => ({ password: passwordRef, code: codeRef, confirmation: confirmationRef })[field].current?.focus();

  const expected = deletionConfirmationOf(profile);
  const recipient = profile.hasPassword ? null : deletionCodeRecipientOf(profile);
  const confirmed = isDeletionConfirmed(profile, typed);

  const close = () => {
    if (busy) return;
    setPassword('');
    setCode('');
    setTyped('');
    setErrors({});
    setFailure(null);
    setCodeSent(false);
    countdown.stop();
    onClose();
  };

  /** A refusal naming one of the dialog's fields shows beside it; null for the others. */
  const fieldErrorOf = (error: unknown): { field: Field; text: string } | null => {
    if (!(error instanceof ApiError)) return null;
    if (error.field === 'password') {
      if (error.code === ErrorCode.WrongCredentials) return { field: 'password', text: t('account.passwordWrong') };
      if (error.code === ErrorCode.RequiredField) return { field: 'password', text: t('account.profile.delete.passwordRequired') };
    }
    if (error.field === 'code') {
      if (error.code === ErrorCode.CodeInvalid) return { field: 'code', text: t('errors.1040') };
      if (error.code === ErrorCode.RequestExpired) return { field: 'code', text: t('account.profile.delete.codeExpired') };
      if (error.code === ErrorCode.RequiredField) return { field: 'code', text: t('account.profile.delete.codeRequired') };
    }
    if (error.field === 'confirmation') return { field: 'confirmation', text: t('account.profile.delete.confirmMismatch', { value: expected }) };
    return null;
  };

  const fail = (error: unknown) => {
    const fieldError = fieldErrorOf(error);
    if (fieldError) {
      setErrors({ [fieldError.field]: fieldError.text });
      focus(fieldError.field);
    } else {
      setFailure(error);
    }
  };

  const sendCode = async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy('send');
    setFailure(null);
    setErrors({});
    try {
      const { resendAfter } = await api.sendDeletionCode();
      setCodeSent(true);
      countdown.start(resendAfter > 0 ? resendAfter : RESEND_SECONDS);
      focus('code');
    } catch (error) {
      // Refused because a code went out less than a minute ago (the dialog was closed and opened
      // again): that code is still good, so its field and what is left of the minute, not an error.
      const wait = resendCooldown(error);
      if (wait === null) {
        fail(error);
      } else {
        setCodeSent(true);
        countdown.start(wait);
        focus('code');
      }
    } finally {
      inFlight.current = false;
      setBusy(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current || !confirmed) return;
    const missing: Field | null = profile.hasPassword ? (password ? null : 'password') : code.length === OTP_LENGTH ? null : 'code';
    if (missing) {
      // A new try: the last answer's message goes, so only what is missing now is on the page.
      setFailure(null);
      setErrors({ [missing]: t(missing === 'password' ? 'account.profile.delete.passwordRequired' : 'account.profile.delete.codeRequired') });
      focus(missing);
      return;
    }
    inFlight.current = true;
    setBusy('delete');
    setFailure(null);
    setErrors({});
    try {
      await api.deleteAccount(profile.hasPassword ? { password, confirmation: typed } : { code, confirmation: typed });
      setBusy('done');
      await onDeleted();
    } catch (error) {
      inFlight.current = false;
      setBusy(null);
      fail(error);
    }
  };

  const proof = profile.hasPassword ? (
    <TextField
      id="delete-password"
      inputRef={passwordRef}
      type="password"
      label={t('account.profile.delete.passwordLabel')}
      autoComplete="current-password"
      value={password}
      onChange={(event) => {
        setPassword(event.target.value);
        if (errors.password) setErrors((found) => ({ ...found, password: undefined }));
      }}
      autoFocus
      required
      fullWidth
      margin="normal"
      error={Boolean(errors.password)}
      helperText={errors.password ?? ' '}
      slotProps={{ htmlInput: { maxLength: PASSWORD_MAX_LENGTH } }}
    />
  ) : recipient ? (
    <>
      <Typography color="textSecondary" sx={{ mt: 2 }}>
        {t('account.profile.delete.proofCode', { to: recipient.to })}
      </Typography>
      {codeSent && (
        <CodeTextField
          id="delete-code"
          inputRef={codeRef}
          label={t('account.profile.delete.codeLabel')}
          value={code}
          onChange={(value) => {
            setCode(value);
            if (errors.code) setErrors((found) => ({ ...found, code: undefined }));
          }}
          error={errors.code}
          helperText={t('account.profile.delete.codeSent', { to: recipient.to })}
        />
      )}
      <Button onClick={() => void sendCode()} disabled={busy !== null || countdown.running} sx={{ mt: 1 }}>
        {busy === 'send'
          ? t('flow.sending')
          : countdown.running
            ? t('flow.resendIn', { seconds: countdown.secondsLeft })
            : codeSent
              ? t('flow.resendCode')
              : t('account.profile.delete.sendCode')}
      </Button>
    </>
  ) : (
    <Typography color="error" sx={{ mt: 2 }}>
      {t('account.profile.delete.noRecipient')}
    </Typography>
  );

  return (
    <Dialog
      open={open}
      onClose={close}
      fullWidth
      maxWidth={false}
      aria-labelledby="delete-dialog-title"
      aria-describedby="delete-dialog-text"
      slotProps={{ paper: { sx: { maxWidth: CONTENT_MAX_WIDTH, m: 2, width: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id="delete-dialog-title" component="h2" sx={{ typography: 'h2' }}>
        {t('account.profile.delete.dialogTitle')}
      </DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent sx={{ pt: 0 }}>
          <AccountErrorNotice error={failure} />
          <DialogContentText id="delete-dialog-text">{t('account.profile.delete.dialogText')}</DialogContentText>
          {proof}
          <TextField
            id="delete-confirmation"
            inputRef={confirmationRef}
            label={t('account.profile.delete.confirmLabel', { value: expected })}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (errors.confirmation) setErrors((found) => ({ ...found, confirmation: undefined }));
            }}
            autoComplete="off"
            required
            fullWidth
            margin="normal"
            error={Boolean(errors.confirmation)}
            helperText={errors.confirmation ?? t('account.profile.delete.confirmHelp', { value: expected })}
            slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={busy !== null}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" color="error" disabled={busy !== null || !confirmed || (!profile.hasPassword && !codeSent)}>
            {busy === 'delete' || busy === 'done' ? t('account.profile.delete.deleting') : t('account.profile.delete.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
