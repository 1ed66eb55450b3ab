import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeviceIcon from '@mui/icons-material/FingerprintOutlined';
import type { WebauthnCredential } from '@passgate/contract';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Loading } from '../../../components/Loading.tsx';
import { useProfileNotice } from './profile-notice.tsx';
import { CONTENT_MAX_WIDTH } from '../../../theme/themes.ts';
import { readDeviceNotice } from '../../webauthn/device-state.ts';
import { useDeviceChallenge } from '../../webauthn/use-device-challenge.ts';
import { useDevices, useTenant } from '../../webauthn/use-webauthn-api.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { SectionCard } from './SectionCard.tsx';

/** My devices (SPEC.md sections 2 and 6): only when the user's tenant allows devices. */
export function DevicesSection() {
  const tenant = useTenant();
  // The tenant could not be read: the card stays away rather than offering what may be refused.
  if (!tenant.data?.webauthnAllowed) return null;
  return <DeviceList />;
}

function DeviceList() {
  const { t, i18n } = useTranslation();
  const devices = useDevices(true);
  const challenge = useDeviceChallenge();
  const arrived = readDeviceNotice(useLocation().state);
  const notice = useProfileNotice('devices');
  const { show } = notice;
  // A device just activated or deleted on its own page: said here on arrival, until the next notice.
  useEffect(() => {
    if (arrived) show('success', t(`account.devices.${arrived}`));
  }, [arrived, show, t]);
  const [deleting, setDeleting] = useState<WebauthnCredential | null>(null);
  const date = new Intl.DateTimeFormat(i18n.language === 'en' ? 'en-GB' : 'vi-VN', { dateStyle: 'short' });
  const busy = challenge.isPending || challenge.isSuccess;
  const items = devices.data?.items ?? [];

  const describe = (device: WebauthnCredential) =>
    [t('account.devices.addedOn', { date: date.format(device.createdAt * 1000) }), device.lastUsedAt ? t('account.devices.lastUsed', { date: date.format(device.lastUsedAt * 1000) }) : null]
      .filter(Boolean)
      .join(', ');

  const closeDialog = () => {
    if (busy) return;
    setDeleting(null);
    challenge.reset();
  };

  return (
    <SectionCard id="devices-title" title={t('account.devices.title')} description={t('account.devices.description')}>
      {notice.slot}
      <AccountErrorNotice error={devices.error ?? (deleting ? null : challenge.error)} />
      {devices.isPending && <Loading />}
      {devices.isSuccess && items.length === 0 && (
        <Typography variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          {t('account.devices.none')}
        </Typography>
      )}
      {items.length > 0 && (
        <Box component="ul" aria-labelledby="devices-title" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
          {items.map((device, index) => (
            <Box component="li" key={device.id} aria-label={device.deviceName}>
              {index > 0 && <Divider />}
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, py: 1.5 }}>
                <DeviceIcon color="action" aria-hidden />
                <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                  <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                    <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{device.deviceName}</Typography>
                    <Chip
                      size="small"
                      color={device.active ? 'success' : 'default'}
                      variant={device.active ? 'filled' : 'outlined'}
                      label={t(device.active ? 'account.devices.active' : 'account.devices.inactive')}
                    />
                  </Box>
                  <Typography variant="body2" color="textSecondary">
                    {describe(device)}
                  </Typography>
                </Box>
                <Box sx={{ display: 'flex', gap: 1, ml: 'auto' }}>
                  {!device.active && (
                    <Button
                      variant="outlined"
                      size="small"
                      disabled={busy}
                      aria-label={t('account.devices.activateLabel', { name: device.deviceName })}
                      onClick={() => challenge.mutate({ device, purpose: 'activation' })}
                    >
                      {t('account.devices.activate')}
                    </Button>
                  )}
                  <Button
                    color="error"
                    size="small"
                    disabled={busy}
                    aria-label={t('account.devices.deleteLabel', { name: device.deviceName })}
                    onClick={() => {
                      challenge.reset();
                      setDeleting(device);
                    }}
                  >
                    {t('account.devices.delete')}
                  </Button>
                </Box>
              </Box>
            </Box>
          ))}
        </Box>
      )}
      <Button component={Link} to="/user/webauthn/register" variant="contained" startIcon={<AddIcon />}>
        {t('account.devices.register')}
      </Button>
      <Dialog
        open={deleting !== null}
        onClose={closeDialog}
        fullWidth
        maxWidth={false}
        aria-labelledby="device-delete-title"
        aria-describedby="device-delete-text"
        slotProps={{ paper: { sx: { maxWidth: CONTENT_MAX_WIDTH, m: 2, width: 'calc(100% - 32px)' } } }}
      >
        <DialogTitle id="device-delete-title" component="h2" sx={{ typography: 'h2' }}>
          {t('account.devices.deleteTitle')}
        </DialogTitle>
        <DialogContent>
          <AccountErrorNotice error={deleting ? challenge.error : null} />
          <DialogContentText id="device-delete-text" sx={{ overflowWrap: 'anywhere' }}>
            {t('account.devices.deleteQuestion', { name: deleting?.deviceName ?? '' })}
          </DialogContentText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={closeDialog} disabled={busy} autoFocus>
            {t('common.cancel')}
          </Button>
          <Button variant="contained" color="error" disabled={busy} onClick={() => deleting && challenge.mutate({ device: deleting, purpose: 'deletion' })}>
            {busy ? t('account.devices.sendingCode') : t('account.devices.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </SectionCard>
  );
}
