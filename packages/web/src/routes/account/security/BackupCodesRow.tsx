import { useRef, useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BackupCodesStatus } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { BackupCodesDialog } from './BackupCodesDialog.tsx';
import { useHeldPassword } from './held-password.tsx';

export const BACKUP_CODES_KEY = ['me', 'backup-codes'] as const;

/** How many backup codes are left, kept fresh for the Security page. */
export function useBackupCodesStatus(enabled: boolean) {
  const api = useAccountApi();
  return useQuery({ queryKey: BACKUP_CODES_KEY, queryFn: () => api.backupCodes(), enabled });
}

/**
 * 'Generate new backup codes': says the old ones stop working and re-checks the password (as every
 * 2-step change does). A wrong password is said beside the field, which keeps what was typed.
 */
function RegenerateDialog({ onClose, onCodes }: { onClose: () => void; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const { setPassword } = useHeldPassword();
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    if (!value) {
      setFieldError(t('account.security.check.required'));
      inputRef.current?.focus();
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      const { backupCodes, remaining, total } = await api.regenerateBackupCodes({ password: value });
      setPassword(value);
      queryClient.setQueryData<BackupCodesStatus>(BACKUP_CODES_KEY, { remaining, total });
      void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
      onCodes(backupCodes);
    } catch (error) {
      if (error instanceof ApiError && error.code === 1017) {
        setFieldError(t('account.security.backupCodes.wrongPassword'));
        inputRef.current?.focus();
      } else {
        setFailure(error);
      }
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby="regenerate-codes-title"
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 480 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id="regenerate-codes-title" component="h2" sx={{ typography: 'h2' }}>
        {t('account.security.backupCodes.regenerateTitle')}
      </DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogContent sx={{ pt: 0 }}>
          <AccountErrorNotice error={failure} />
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
            <WarningIcon color="warning" aria-hidden sx={{ mt: 0.25 }} />
            <Typography>{t('account.security.backupCodes.regenerateWarning')}</Typography>
          </Box>
          <TextField
            id="regenerate-codes-password"
            inputRef={inputRef}
            type="password"
            label={t('account.security.check.password')}
            autoComplete="current-password"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoFocus
            required
            fullWidth
            margin="normal"
            error={Boolean(fieldError)}
            helperText={fieldError ?? t('account.security.check.description')}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('account.security.backupCodes.regenerateConfirm')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** The Security page's backup codes line: how many are left, and 'Generate new backup codes'. */
export function BackupCodesRow() {
  const { t } = useTranslation();
  const status = useBackupCodesStatus(true);
  const [regenerating, setRegenerating] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const remaining = status.data?.remaining;

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, width: '100%' }}>
      <Typography sx={{ flex: '0 0 200px', fontWeight: 500 }}>{t('account.security.backupCodes.title')}</Typography>
      <Box sx={{ flex: 1, minWidth: 180, color: 'text.secondary' }}>
        {status.data && (
          <Typography color={remaining === 0 ? 'warning.main' : 'text.secondary'}>
            {remaining === 0 ? t('account.security.backupCodes.noneLeft') : t('account.security.backupCodes.remaining', { count: remaining, total: status.data.total })}
          </Typography>
        )}
        <AccountErrorNotice error={status.error} />
      </Box>
      <Button variant="outlined" onClick={() => setRegenerating(true)}>
        {t('account.security.backupCodes.regenerate')}
      </Button>
      {regenerating && (
        <RegenerateDialog
          onClose={() => setRegenerating(false)}
          onCodes={(fresh) => {
            setRegenerating(false);
            setCodes(fresh);
          }}
        />
      )}
      {codes && <BackupCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </Box>
  );
}
