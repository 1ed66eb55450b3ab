import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { ApiErrorAlert } from '../../../components/ApiErrorAlert.tsx';

interface Props {
  open: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Something that cannot be undone: the button is red. */
  destructive?: boolean;
  /** When given, the admin types it before the button works (deleting a client). */
  typeToConfirm?: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}

/** Asks before an action; shows the action's failure in place, and closes once it succeeded. */
export function ConfirmDialog({ open, title, message, confirmLabel, destructive = false, typeToConfirm, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const ready = !typeToConfirm || typed.trim() === typeToConfirm;

  const close = () => {
    if (busy) return;
    setTyped('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!ready || busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setTyped('');
      onClose();
    } catch (cause) {
      setError(cause);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="confirm-title" fullWidth maxWidth="xs">
      <DialogTitle id="confirm-title">{title}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText component="div">{message}</DialogContentText>
        {typeToConfirm && (
          <TextField
            autoFocus
            size="small"
            label={t('admin.confirm.typeLabel', { value: typeToConfirm })}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false } }}
          />
        )}
        <ApiErrorAlert error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          {t('admin.cancel')}
        </Button>
        <Button variant="contained" color={destructive ? 'error' : 'primary'} onClick={() => void confirm()} disabled={!ready || busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
