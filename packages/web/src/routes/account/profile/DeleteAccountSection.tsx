import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import DeleteIcon from '@mui/icons-material/DeleteForeverOutlined';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONTENT_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { forgetUser } from '../auth.ts';
import { useAccountApi } from '../use-account-api.ts';
import { SectionCard } from './SectionCard.tsx';

/** Where the browser goes once the account is gone: a public page saying so. */
export const ACCOUNT_DELETED_PATH = '/account-deleted';

/**
 * Delete account: a confirmation dialog, then DELETE /api/v1/me. The server removes the account,
 * its sessions and grants; the tab forgets its tokens and shows the public 'account deleted' page.
 */
export function DeleteAccountSection() {
  const { t } = useTranslation();
  const api = useAccountApi();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  const remove = useMutation({
    mutationFn: async () => {
      await api.deleteAccount();
      await forgetUser();
    },
    // No cache clearing here: it would make the header read /me again (a 401 now) before leaving.
    onSuccess: () => {
      void navigate(ACCOUNT_DELETED_PATH, { replace: true });
    },
  });
  const busy = remove.isPending || remove.isSuccess;

  const close = () => {
    if (busy) return;
    setOpen(false);
    remove.reset();
  };

  return (
    <SectionCard id="delete-title" title={t('account.profile.delete.title')} description={t('account.profile.delete.description')}>
      <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        {t('account.profile.delete.button')}
      </Button>
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
        <DialogContent>
          <AccountErrorNotice error={remove.error} />
          <DialogContentText id="delete-dialog-text">{t('account.profile.delete.dialogText')}</DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={busy} autoFocus>
            {t('common.cancel')}
          </Button>
          <Button variant="contained" color="error" onClick={() => remove.mutate()} disabled={busy}>
            {busy ? t('account.profile.delete.deleting') : t('account.profile.delete.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </SectionCard>
  );
}
