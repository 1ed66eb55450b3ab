import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../../components/ActionButton.tsx';
import { DIALOG_MAX_WIDTH } from '../../theme/themes.ts';
import { PolicyDocument } from '../privacy/PolicyDocument.tsx';

/**
 * The embedded policy document (SPEC.md section 2, Register) for clients and tenants without terms
 * or privacy addresses of their own: the privacy policy of /privacy, at most 720 px wide, with OK.
 * Its own chunk: loaded only when opened.
 */
export default function PolicyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      scroll="paper"
      fullWidth
      maxWidth={false}
      aria-labelledby="policy-dialog-title"
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, m: { xs: 1.5, sm: 4 }, width: { xs: 'calc(100% - 24px)', sm: 'calc(100% - 64px)' } } } }}
    >
      <DialogTitle id="policy-dialog-title" component="h2" sx={{ typography: 'h2' }}>
        {t('register.policyDialogTitle')}
      </DialogTitle>
      <DialogContent dividers>
        {i18n.language !== 'vi' && (
          <Typography color="textSecondary" sx={{ mb: 1 }}>
            {t('privacy.languageNote')}
          </Typography>
        )}
        <PolicyDocument sectionHeading="h3" />
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <ActionButton variant="contained" onClick={onClose} sx={{ minWidth: 96 }}>
          {t('common.ok')}
        </ActionButton>
      </DialogActions>
    </Dialog>
  );
}
