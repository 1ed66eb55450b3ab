import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { OTP_LENGTH } from '@passgate/contract/rules';
import type { MfaAssociateResponse, TokenType } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { resendCooldown } from '../../../api/errors.ts';
import { Loading } from '../../../components/Loading.tsx';
import { RESEND_SECONDS, useCountdown } from '../../../hooks/use-countdown.ts';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { PROFILE_KEY } from '../use-profile.ts';
import { BACKUP_CODES_KEY } from './BackupCodesRow.tsx';
import { CodeTextField } from '../../../components/CodeTextField.tsx';

/** SPEC.md section 9: QR size 150. */
const QR_SIZE = 150;


/**
 * `onClose(true)`: 2-step verification is now on with this method (the profile already updated);
 * `backupCodes` when it was just turned on (the one time they are shown).
 */
type OnClose = (activated: boolean, backupCodes?: string[]) => void;

function SetupFrame({ id, title, onClose, busy, children }: { id: string; title: string; onClose: () => void; busy: boolean; children: ReactNode }) {
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={id}
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 'calc(100% - 64px)' }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id={id} component="h2" sx={{ typography: 'h2' }}>
        {title}
      </DialogTitle>
      {children}
    </Dialog>
  );
}

/** The confirm step shared by the three dialogs: POST /me/mfa/confirm, then the profile is written. */
function useConfirm(password: string, type: TokenType, onClose: OnClose, codeHelp?: string) {
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = code.length === OTP_LENGTH ? null : t('validation.codeDigits', { count: OTP_LENGTH });
    setCodeError(problem);
    setFailure(null);
    if (problem) return codeRef.current?.focus();
    setBusy(true);
    try {
      // The codes go to the dialog that shows them, never into the query cache.
      const { backupCodes, ...profile } = await api.mfaConfirm({ password, authenticatorType: type, code });
      queryClient.setQueryData(PROFILE_KEY, profile);
      if (backupCodes) void queryClient.invalidateQueries({ queryKey: BACKUP_CODES_KEY });
      void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
      onClose(true, backupCodes);
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  const field = (
    <CodeTextField id={`mfa-${type}-code`} inputRef={codeRef} label={t('account.security.setup.code')} value={code} onChange={setCode} error={codeError} helperText={codeHelp} />
  );
  return { confirm, field, failure, busy };
}

/** Google Authenticator: step 1 the QR code (and the secret to type), step 2 the 6-digit code. */
export function AuthenticatorSetupDialog({ password, onClose }: { password: string; onClose: OnClose }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const [step, setStep] = useState<1 | 2>(1);
  const [association, setAssociation] = useState<MfaAssociateResponse | null>(null);
  const [associateError, setAssociateError] = useState<unknown>(null);
  const { confirm, field, failure, busy } = useConfirm(password, 'totp', onClose);

  useEffect(() => {
    let live = true;
    api.mfaAssociate({ password, authenticatorType: 'totp' }).then(
      (answer) => live && setAssociation(answer),
      (error: unknown) => live && setAssociateError(error),
    );
    return () => {
      live = false;
    };
  }, [api, password]);

  return (
    <SetupFrame id="mfa-totp-title" title={t('account.security.setup.totpTitle')} onClose={() => onClose(false)} busy={busy}>
      {step === 1 ? (
        <>
          <DialogContent sx={{ pt: 0 }}>
            <AccountErrorNotice error={associateError} />
            <Typography color="textSecondary">{t('account.security.setup.scan')}</Typography>
            {!association && !associateError && <Loading />}
            {association?.qrcode && (
              <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, mt: 2 }}>
                <img src={association.qrcode} width={QR_SIZE} height={QR_SIZE} alt={t('account.security.setup.qrAlt')} />
                {association.secret && (
                  <>
                    <Typography variant="body2" color="textSecondary">
                      {t('account.security.setup.secret')}
                    </Typography>
                    <Typography component="code" sx={{ fontFamily: 'monospace', letterSpacing: 1, overflowWrap: 'anywhere', textAlign: 'center' }}>
                      {association.secret}
                    </Typography>
                  </>
                )}
              </Box>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
            <Button variant="contained" disabled={!association} onClick={() => setStep(2)}>
              {t('common.next')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <Box component="form" noValidate onSubmit={(event) => void confirm(event)}>
          <DialogContent sx={{ pt: 0 }}>
            <AccountErrorNotice error={failure} />
            <Typography color="textSecondary">{t('account.security.setup.enterAppCode')}</Typography>
            {field}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setStep(1)} disabled={busy}>
              {t('common.back')}
            </Button>
            <Button type="submit" variant="contained" disabled={busy}>
              {t('account.security.setup.confirm')}
            </Button>
          </DialogActions>
        </Box>
      )}
    </SetupFrame>
  );
}

/** SMS or e-mail: the read-only phone or address, Send code (60 s, then 'Resend verification code'), the code, Cancel, Confirm. */
export function CodeSetupDialog({ kind, password, target, onClose }: { kind: 'sms' | 'email'; password: string; target: string; onClose: OnClose }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const countdown = useCountdown();
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<unknown>(null);
  // Said under the code field, so a code sent before the dialog was opened again is known to be on its way.
  const { confirm, field, failure, busy } = useConfirm(password, kind, onClose, t('account.profile.delete.codeSent', { to: target }));

  const send = async () => {
    if (sending) return;
    setSending(true);
    setSendError(null);
    try {
      const { resendAfter } = await api.mfaAssociate({ password, authenticatorType: kind });
      setSent(true);
      countdown.start(resendAfter && resendAfter > 0 ? resendAfter : RESEND_SECONDS);
    } catch (error) {
      // Refused because a code went out less than a minute ago (the dialog was left and opened
      // again): that code is still good, so its field and the countdown, not an error.
      const wait = resendCooldown(error);
      if (wait === null) return setSendError(error);
      setSent(true);
      countdown.start(wait);
    } finally {
      setSending(false);
    }
  };

  const sendLabel = sending
    ? t('flow.sending')
    : countdown.running
      ? t('flow.resendIn', { seconds: countdown.secondsLeft })
      : sent
        ? t('account.security.setup.resend')
        : t('account.security.setup.send');

  return (
    <SetupFrame id={`mfa-${kind}-title`} title={t(`account.security.setup.${kind}Title`)} onClose={() => onClose(false)} busy={busy}>
      <Box component="form" noValidate onSubmit={(event) => void (sent ? confirm(event) : (event.preventDefault(), send()))}>
        <DialogContent sx={{ pt: 0 }}>
          <AccountErrorNotice error={sendError ?? failure} />
          <Typography color="textSecondary">{t(`account.security.setup.${kind}Text`)}</Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <TextField
              id={`mfa-${kind}-target`}
              label={t(kind === 'sms' ? 'fields.phoneNumber' : 'fields.email')}
              value={target}
              margin="normal"
              sx={{ flex: 1, minWidth: 220 }}
              slotProps={{ htmlInput: { readOnly: true } }}
            />
            <Button onClick={() => void send()} disabled={sending || countdown.running || busy}>
              {sendLabel}
            </Button>
          </Box>
          {sent && field}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose(false)} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={!sent || busy}>
            {t('account.security.setup.confirm')}
          </Button>
        </DialogActions>
      </Box>
    </SetupFrame>
  );
}
