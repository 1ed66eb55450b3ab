import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { DeviceLoginChallenge } from '../../api/webauthn.ts';
import { ActionButton } from '../../components/ActionButton.tsx';
import { ExternalLink } from '../../components/TextLink.tsx';
import { formatCountdown } from '../../hooks/use-countdown.ts';
import { CONTENT_MAX_WIDTH, DIALOG_MAX_WIDTH } from '../../theme/themes.ts';
import { WIDE } from './device-state.ts';

/** SPEC.md section 9: QR size 150. */
const QR_SIZE = 150;

interface Props {
  request: DeviceLoginChallenge;
  secondsLeft: number;
  onCancel: () => void;
}

/**
 * The QR code another device scans to approve this sign-in (its link, on this site's own origin,
 * also as text), the 300 s countdown, 'Waiting for device verification' and 'Please do not reload
 * this page'. Side by side from 1024 px, stacked below.
 */
export function QrCodeDialog({ request, secondsLeft, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      open
      // Only Cancel closes it: a stray click beside it must not drop a sign-in another device may be approving.
      aria-labelledby="device-qr-title"
      aria-describedby="device-qr-text"
      maxWidth={false}
      slotProps={{
        paper: {
          sx: { width: 'calc(100% - 32px)', maxWidth: CONTENT_MAX_WIDTH, m: 2, [WIDE]: { maxWidth: DIALOG_MAX_WIDTH } },
        },
      }}
    >
      <DialogTitle id="device-qr-title" component="h2" sx={{ typography: 'h2' }}>
        {t('deviceLogin.qrTitle')}
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, textAlign: 'center', [WIDE]: { flexDirection: 'row', alignItems: 'flex-start', gap: 4, textAlign: 'left' } }}>
        <Box
          component="img"
          src={request.qrCode}
          width={QR_SIZE}
          height={QR_SIZE}
          alt={t('deviceLogin.qrAlt')}
          sx={{ flexShrink: 0, boxSizing: 'content-box', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
        />
        <Box sx={{ minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography id="device-qr-text" variant="body2" color="textSecondary">
            {t('deviceLogin.qrText')}
          </Typography>
          <ExternalLink href={request.verifyUrl} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: 'anywhere' }}>
            {request.verifyUrl}
          </ExternalLink>
          <Box role="status" aria-live="polite" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
            <Typography sx={{ fontWeight: 600 }}>{t('deviceLogin.waiting')}</Typography>
            {/* The seconds tick every second: announced only through the status above, not each tick. */}
            <Typography variant="body2" aria-hidden sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {t('deviceLogin.expiresIn', { time: formatCountdown(secondsLeft) })}
            </Typography>
          </Box>
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {t('deviceLogin.noReload')}
          </Typography>
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <ActionButton variant="text" onClick={onCancel}>
          {t('common.cancel')}
        </ActionButton>
      </DialogActions>
    </Dialog>
  );
}
