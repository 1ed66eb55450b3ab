import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';

/** A new client secret, shown this once (the server keeps only its hash), with a copy button. */
export function SecretDialog({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog open={secret !== null} onClose={close} aria-labelledby="secret-title" fullWidth maxWidth="sm">
      <DialogTitle id="secret-title">{t('admin.clients.secretTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Alert severity="warning">{t('admin.clients.secretOnce')}</Alert>
        <Box
          component="code"
          data-testid="client-secret"
          sx={{ display: 'block', p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.9rem', overflowWrap: 'anywhere', userSelect: 'all' }}
        >
          {secret}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {copied ? t('admin.clients.copied') : t('admin.clients.copy')}
        </Button>
        <Button variant="contained" onClick={close}>
          {t('admin.clients.secretDone')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
