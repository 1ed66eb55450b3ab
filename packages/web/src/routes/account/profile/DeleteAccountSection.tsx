import { useState } from 'react';
import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/DeleteForeverOutlined';
import type { Profile } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { forgetUser } from '../auth.ts';
import { DeleteAccountDialog } from './DeleteAccountDialog.tsx';
import { SectionCard } from './SectionCard.tsx';

/** Where the browser goes once the account is gone: a public page saying so. */
export const ACCOUNT_DELETED_PATH = '/account-deleted';

/**
 * Delete account: a dialog that asks for proof and a typed confirmation, then DELETE /api/v1/me.
 * The server removes the account, its sessions and grants; the tab forgets its tokens and shows
 * the public 'account deleted' page.
 */
export function DeleteAccountSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  // No cache clearing here: it would make the header read /me again (a 401 now) before leaving.
  const onDeleted = async () => {
    await forgetUser();
    void navigate(ACCOUNT_DELETED_PATH, { replace: true });
  };

  return (
    <SectionCard id="delete-title" title={t('account.profile.delete.title')} description={t('account.profile.delete.description')}>
      <Button variant="outlined" color="error" startIcon={<DeleteIcon />} onClick={() => setOpen(true)}>
        {t('account.profile.delete.button')}
      </Button>
      <DeleteAccountDialog profile={profile} open={open} onClose={() => setOpen(false)} onDeleted={onDeleted} />
    </SectionCard>
  );
}
