import { lazy, Suspense, useEffect, useRef, useState, type ChangeEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@passgate/contract';
import { UserAvatar } from '../UserAvatar.tsx';
import { displayName } from '../use-profile.ts';
import { isImageFile } from './avatar-crop.ts';
import { SectionCard } from './SectionCard.tsx';
import { useProfileNotice } from './profile-notice.tsx';

// The cropper (react-easy-crop) is fetched only when a picture has been chosen.
const AvatarCropDialog = lazy(() => import('./AvatarCropDialog.tsx').then((module) => ({ default: module.AvatarCropDialog })));

/** The profile picture: choose an image file, crop it, save it (POST /api/v1/me/avatar). */
export function AvatarSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<string | null>(null);
  const notice = useProfileNotice('avatar');
  const name = displayName(profile);

  // The chosen file is shown through an object URL, released when the dialog closes (or the page goes).
  const shown = useRef<{ url: string | null }>({ url: null });
  const show = (url: string | null) => {
    if (shown.current.url) URL.revokeObjectURL(shown.current.url);
    shown.current.url = url;
    setImage(url);
  };
  useEffect(() => {
    const holder = shown.current;
    return () => {
      if (holder.url) URL.revokeObjectURL(holder.url);
    };
  }, []);

  const choose = () => {
    notice.clear();
    input.current?.click();
  };

  const chosen = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a cancel.
    event.target.value = '';
    if (!file) return;
    if (!isImageFile(file)) {
      notice.show('error', t('errors.1071'));
      return;
    }
    notice.clear();
    show(URL.createObjectURL(file));
  };

  return (
    <SectionCard id="avatar-title" title={t('account.profile.avatar.title')} description={t('account.profile.avatar.description')}>
      {notice.slot}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <UserAvatar name={name} src={profile.avatarUrl} size={96} alt={t('account.dashboard.avatarAlt', { name })} />
        <Button variant="outlined" startIcon={<PhotoCameraIcon />} onClick={choose}>
          {t('account.profile.avatar.change')}
        </Button>
      </Box>
      <input ref={input} type="file" accept="image/*" hidden onChange={chosen} data-testid="avatar-file" />
      {image && (
        <Suspense fallback={null}>
          <AvatarCropDialog
            image={image}
            onClose={(saved) => {
              show(null);
              if (saved) notice.show('success', t('account.profile.updated'));
            }}
          />
        </Suspense>
      )}
    </SectionCard>
  );
}
