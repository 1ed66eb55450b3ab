import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Cropper from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@passgate/contract/rules';
import { ApiError } from '../../../api/errors.ts';
import { DIALOG_MAX_WIDTH } from '../../../theme/themes.ts';
import { AccountErrorNotice } from '../AccountErrorNotice.tsx';
import { useAccountApi } from '../use-account-api.ts';
import { PROFILE_KEY } from '../use-profile.ts';
import { AVATAR_ZOOM, cropCanvasSize, snapZoom, cropToDataUrl, useWindowWidth, type CropArea } from './avatar-crop.ts';

/** A picture the browser cannot decode is reported as the server would report it (1070). */
const undecodable = () => new ApiError(400, ErrorCode.ImageInvalid, 'The image cannot be decoded or is not valid');

/**
 * The avatar cropper (SPEC.md sections 2, 5 and 9): a square canvas of 470 px (the window's width
 * minus 64 on narrow screens) with a round mask, a zoom slider from 1 to 2 in steps of 0.1, and Save,
 * which crops on a canvas and sends the result as a data: URL. The new picture is written into the
 * profile query at once, so the header and the dashboard show it.
 */
export function AvatarCropDialog({ image, onClose }: { image: string; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const api = useAccountApi();
  const queryClient = useQueryClient();
  const size = cropCanvasSize(useWindowWidth());
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState<number>(AVATAR_ZOOM.min);
  const [area, setArea] = useState<CropArea | null>(null);
  const [decodeError, setDecodeError] = useState<ApiError | null>(null);

  const upload = useMutation({
    mutationFn: async (cropArea: CropArea) => {
      let dataUrl: string;
      try {
        dataUrl = await cropToDataUrl(image, cropArea);
      } catch {
        throw undecodable();
      }
      return api.uploadAvatar({ image: dataUrl });
    },
    onSuccess: (profile) => {
      queryClient.setQueryData(PROFILE_KEY, profile);
      onClose(true);
    },
  });
  const error = decodeError ?? upload.error;
  const busy = upload.isPending;

  return (
    <Dialog
      open
      onClose={() => !busy && onClose(false)}
      fullWidth
      maxWidth={false}
      // The canvas keeps SPEC's 470 px; on a short window the page scrolls, not the dialog's inside.
      scroll="body"
      aria-labelledby="avatar-dialog-title"
      aria-describedby="avatar-dialog-hint"
      slotProps={{ paper: { sx: { maxWidth: DIALOG_MAX_WIDTH, m: { xs: 2, sm: 4 }, width: { xs: 'calc(100% - 32px)', sm: 'calc(100% - 64px)' } } } }}
    >
      <DialogTitle id="avatar-dialog-title" component="h2" sx={{ typography: 'h2', px: { xs: 2, sm: 3 } }}>
        {t('account.profile.avatar.dialogTitle')}
      </DialogTitle>
      <DialogContent sx={{ px: { xs: 2, sm: 3 } }}>
        <Typography id="avatar-dialog-hint" variant="body2" color="textSecondary" sx={{ mb: 2 }}>
          {t('account.profile.avatar.hint')}
        </Typography>
        <AccountErrorNotice error={error} />
        <Box data-testid="avatar-crop-canvas" sx={{ position: 'relative', width: size, height: size, maxWidth: '100%', mx: 'auto', bgcolor: 'grey.900', borderRadius: 2, overflow: 'hidden' }}>
          <Cropper
            image={image}
            crop={crop}
            zoom={zoom}
            minZoom={AVATAR_ZOOM.min}
            maxZoom={AVATAR_ZOOM.max}
            aspect={1}
            cropShape="round"
            showGrid={false}
            objectFit="cover"
            onCropChange={setCrop}
            onZoomChange={(value) => setZoom(snapZoom(value))}
            onCropComplete={(_, pixels) => setArea(pixels)}
            mediaProps={{ onError: () => setDecodeError(undecodable()) }}
          />
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, maxWidth: size, mx: 'auto', mt: 2 }}>
          <ZoomOutIcon aria-hidden color="action" />
          <Slider
            value={zoom}
            min={AVATAR_ZOOM.min}
            max={AVATAR_ZOOM.max}
            step={AVATAR_ZOOM.step}
            onChange={(_, value) => setZoom(snapZoom(value))}
            aria-label={t('account.profile.avatar.zoom')}
            valueLabelDisplay="auto"
            valueLabelFormat={(value) => `${value.toFixed(1)}×`}
            getAriaValueText={(value) => `${value.toFixed(1)}×`}
          />
          <ZoomInIcon aria-hidden color="action" />
        </Box>
      </DialogContent>
      <DialogActions sx={{ px: { xs: 2, sm: 3 }, pb: 2 }}>
        <Button onClick={() => onClose(false)} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => area && upload.mutate(area)} disabled={busy || !area || decodeError !== null}>
          {busy ? t('account.profile.avatar.uploading') : t('common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
