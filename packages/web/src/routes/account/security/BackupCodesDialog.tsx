import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import CopyIcon from '@mui/icons-material/ContentCopyOutlined';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import KeyIcon from '@mui/icons-material/KeyOutlined';
import { useTranslation } from 'react-i18next';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';

export const BACKUP_CODES_FILE = 'passgate-backup-codes.txt';

/** The text file a person keeps: what the codes are, the codes one per line, and how to keep them. */
export function backupCodesText(title: string, keepSafe: string, codes: readonly string[]): string {
  return [title, '', ...codes, '', keepSafe, ''].join('\r\n');
}

/**
 * The ten backup codes, shown this once (after 2-step is turned on, or new codes are generated),
 * with Copy and Download (.txt). A click beside the dialog does not close it: the codes cannot be
 * shown again, so leaving takes the Done button (or Escape).
 */
export function BackupCodesDialog({ codes, onClose }: { codes: readonly string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'copied' | 'copyFailed' | null>(null);
  const text = backupCodesText(t('account.security.backupCodes.fileTitle', { app: t('app.name') }), t('account.security.backupCodes.keepSafe'), codes);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 4000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('copied');
    } catch {
      setCopied('copyFailed');
    }
  };

  return (
    <Dialog
      open
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby="backup-codes-title"
      aria-describedby="backup-codes-keep-safe"
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, width: { xs: 'calc(100% - 32px)', sm: 560 }, m: { xs: 2, sm: 4 } } } }}
    >
      <DialogTitle id="backup-codes-title" component="h2" sx={{ typography: 'h2', display: 'flex', alignItems: 'center', gap: 1 }}>
        <KeyIcon color="primary" aria-hidden />
        {t('account.security.backupCodes.dialogTitle')}
      </DialogTitle>
      <DialogContent sx={{ pt: 0 }}>
        <Typography id="backup-codes-keep-safe" color="textSecondary">
          {t('account.security.backupCodes.keepSafe')}
        </Typography>
        <Box
          component="ol"
          aria-label={t('account.security.backupCodes.listLabel')}
          sx={{
            listStyle: 'none',
            m: 0,
            mt: 2,
            p: 2,
            display: 'grid',
            gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(2, auto)' },
            justifyContent: 'center',
            columnGap: { xs: 2, sm: 6 },
            rowGap: 1,
            bgcolor: 'action.hover',
            borderRadius: 2,
          }}
        >
          {codes.map((code) => (
            <Box component="li" key={code} sx={{ fontFamily: 'monospace', fontSize: { xs: '1rem', sm: '1.1rem' }, letterSpacing: { xs: 0.5, sm: 1 }, textAlign: 'center' }}>
              {code}
            </Box>
          ))}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 1, mt: 2 }}>
          <Button variant="outlined" startIcon={<CopyIcon />} onClick={() => void copy()}>
            {t('account.security.backupCodes.copy')}
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
            download={BACKUP_CODES_FILE}
          >
            {t('account.security.backupCodes.download')}
          </Button>
        </Box>
        <Typography role="status" variant="body2" color={copied === 'copyFailed' ? 'error' : 'success.main'} sx={{ textAlign: 'center', mt: 1, minHeight: '1.5em' }}>
          {copied ? t(`account.security.backupCodes.${copied}`) : ''}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('account.security.backupCodes.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
