import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RememberedBrowsers } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/Notice.tsx';
import { useTenant } from '../../webauthn/use-webauthn-api.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { DangerConfirmDialog } from './DangerConfirmDialog.tsx';
import { useAccountApi } from '../use-account-api.ts';

export const REMEMBERED_BROWSERS_KEY = ['me', 'remembered-browsers'] as const;

/**
 * The Security page's 'Remembered browsers' line (2-step verification on): how many browsers skip
 * the second step, and 'Forget all browsers' with a confirmation. Shown while the tenant offers
 * 'Remember this browser' or some browser is still remembered.
 */
export function RememberedBrowsersItem() {
  const { t } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const tenant = useTenant();
  const remembered = useQuery({ queryKey: REMEMBERED_BROWSERS_KEY, queryFn: () => api.rememberedBrowsers() });
  const [confirming, setConfirming] = useState(false);
  const [forgotten, setForgotten] = useState(false);
  const forget = useMutation({
    mutationFn: () => api.forgetRememberedBrowsers(),
    onSuccess: (answer) => {
      queryClient.setQueryData<RememberedBrowsers>(REMEMBERED_BROWSERS_KEY, answer);
      void queryClient.invalidateQueries({ queryKey: ['me', 'security-events'] });
      setConfirming(false);
      setForgotten(true);
    },
  });

  const count = remembered.data?.count;
  if (count === undefined && !remembered.error) return null;
  if (!tenant.data?.rememberBrowserDays && !count && !forgotten) return null;

  return (
    <ListItem disableGutters divider sx={{ py: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, width: '100%' }}>
        <Typography sx={{ flex: '0 0 200px', fontWeight: 500 }}>{t('account.security.rememberedBrowsers.title')}</Typography>
        <Box sx={{ flex: 1, minWidth: 180, color: 'text.secondary' }}>
          {count !== undefined && (
            <Typography color="textSecondary">{count === 0 ? t('account.security.rememberedBrowsers.none') : t('account.security.rememberedBrowsers.count', { count })}</Typography>
          )}
          <AccountErrorNotice error={remembered.error} />
        </Box>
        <Button variant="outlined" onClick={() => setConfirming(true)} disabled={!count}>
          {t('account.security.rememberedBrowsers.forget')}
        </Button>
        {forgotten && (
          <Box sx={{ width: '100%' }}>
            <Notice severity="success" message={t('account.security.rememberedBrowsers.forgotten')} />
          </Box>
        )}
      </Box>
      <DangerConfirmDialog
        open={confirming}
        busy={forget.isPending}
        id="forget-browsers"
        title={t('account.security.rememberedBrowsers.confirmTitle')}
        text={t('account.security.rememberedBrowsers.confirmText')}
        confirmLabel={t('account.security.rememberedBrowsers.confirm')}
        busyLabel={t('account.security.rememberedBrowsers.forgetting')}
        notice={<AccountErrorNotice error={forget.error} />}
        onCancel={() => {
          setConfirming(false);
          forget.reset();
        }}
        onConfirm={() => forget.mutate()}
      />
    </ListItem>
  );
}
