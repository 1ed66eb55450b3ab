import type { ReactNode } from 'react';
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
  /** Prefix of the title's and text's element ids, which name and describe the dialog. */
  id: string;
  title: string;
  /** What follows the action, said before it is taken. */
  text: string;
  confirmLabel: string;
  /** The button's label while the action runs. */
  busyLabel: string;
  /** A failure of the action, shown above the text (the dialog stays open). */
  notice?: ReactNode;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before a Security page action that cannot be undone (2-step off, forgetting browsers, signing sessions out), with a red button. */
export function DangerConfirmDialog({ open, busy, id, title, text, confirmLabel, busyLabel, notice, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 480 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id={`${id}-title`} component="h2" sx={{ typography: 'h2' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        {notice}
        <DialogContentText id={`${id}-text`}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
