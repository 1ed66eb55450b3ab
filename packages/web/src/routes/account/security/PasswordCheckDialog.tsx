import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ErrorCode } from '@passgate/contract/rules';
import { ApiError } from '../../../api/errors.ts';
import { errorText } from '../../../i18n/error-message.ts';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';
import { useAccountApi } from '../use-account-api.ts';
import { useHeldPassword } from './held-password.tsx';

/**
 * The password re-check before the security settings (SPEC.md sections 2 and 4): POST /me/mfa/config.
 * A wrong password is said beside the field, which keeps what was typed; any other failure shows
 * the 'something went wrong' panel (with the reason when there is one) and Back. Success keeps the
 * password in memory and goes to the 2-step page (on) or its greeting (off).
 */
export function PasswordCheckDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const navigate = useNavigate();
  const { setPassword } = useHeldPassword();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const close = () => {
    setValue('');
    setError(null);
    setFailed(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!value) {
      setError(t('account.security.check.required'));
      inputRef.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const { enabledMfa } = await api.mfaConfig({ password: value });
      setPassword(value);
      void navigate(enabledMfa ? '/user/security/mfa' : '/user/security/mfa/greeting');
    } catch (error) {
      if (error instanceof ApiError && error.code === ErrorCode.WrongCredentials && error.field === 'password') {
        setError(t('account.passwordWrong'));
        inputRef.current?.focus();
      } else {
        setFailed(errorText(t, error) ?? t('messages.somethingWrong'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={close}
      aria-labelledby="password-check-title"
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 480 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id="password-check-title" component="h2" sx={{ typography: 'h2' }}>
        {t('account.security.check.title')}
      </DialogTitle>
      {failed ? (
        <>
          <DialogContent>
            <Box role="alert" sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1.5, py: 2 }}>
              <ErrorIcon color="error" sx={{ fontSize: 48 }} aria-hidden />
              <Typography>{failed}</Typography>
            </Box>
          </DialogContent>
          <DialogActions>
            <Button
              variant="contained"
              onClick={() => {
                setFailed(null);
                setValue('');
              }}
            >
              {t('common.back')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
          <DialogContent sx={{ pt: 0 }}>
            <Typography color="textSecondary">{t('account.security.check.description')}</Typography>
            <TextField
              id="password-check"
              inputRef={inputRef}
              type="password"
              label={t('account.security.check.password')}
              autoComplete="current-password"
              value={value}
              onChange={(event) => {
                setValue(event.target.value);
                if (error) setError(null);
              }}
              autoFocus
              required
              fullWidth
              margin="normal"
              error={Boolean(error)}
              // A blank line is kept for the message, so nothing moves when it comes or goes.
              helperText={error ?? ' '}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="contained" disabled={busy}>
              {t('common.next')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </Dialog>
  );
}
