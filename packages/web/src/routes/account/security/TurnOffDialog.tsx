import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';

interface Props {
  open: boolean;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before 2-step verification is turned off, saying what that means (password alone, backup codes gone). */
export function TurnOffDialog({ open, busy, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby="mfa-off-title"
      aria-describedby="mfa-off-text"
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 480 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id="mfa-off-title" component="h2" sx={{ typography: 'h2' }}>
        {t('account.security.mfa.offConfirmTitle')}
      </DialogTitle>
      <DialogContent>
        <DialogContentText id="mfa-off-text">{t('account.security.mfa.offConfirmText')}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy}>
          {busy ? t('account.security.mfa.turningOff') : t('account.security.mfa.offConfirmButton')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
