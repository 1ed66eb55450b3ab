import { useEffect, useRef } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { renderApp } from '../../../test/render.tsx';
import type * as AvatarCropModule_ from './avatar-crop.ts';

type AvatarCropModule = typeof AvatarCropModule_;

// jsdom neither lays out nor draws: the cropper reports a fixed area, and the canvas crop answers a
// fixed data: URL. What the screen does with them, and what it sends, is real.
const CROPPED = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==';
vi.mock('react-easy-crop', () => ({
  default: function FakeCropper(props: { onCropComplete?: (area: unknown, pixels: unknown) => void }) {
    // Once, as the real one reports the area when the picture has loaded.
    const { onCropComplete } = props;
    const reported = useRef(false);
    useEffect(() => {
      if (reported.current) return;
      reported.current = true;
      onCropComplete?.({ x: 0, y: 0, width: 100, height: 100 }, { x: 10, y: 20, width: 300, height: 300 });
    }, [onCropComplete]);
    return <div data-testid="fake-cropper" />;
  },
}));
vi.mock('./avatar-crop.ts', async (original) => ({
  ...(await original<AvatarCropModule>()),
  cropToDataUrl: vi.fn(async () => CROPPED),
}));

async function chooseAndSave(answer: Response) {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: vi.fn(() => 'blob:http://localhost:3000/picture-1') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: vi.fn() });
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()), 'POST /api/v1/me/avatar': answer });
  await renderApp('/user/profile?locale=en');
  const user = userEvent.setup();
  await user.upload(await screen.findByTestId('avatar-file'), new File(['png'], 'me.png', { type: 'image/png' }));
  const dialog = await screen.findByRole('dialog', { name: 'Crop your profile picture' });
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
  return { requests, dialog };
}

describe('uploading an avatar', () => {
  it('sends the cropped picture as a data: URL and shows it in the header and the page at once', async () => {
    const { requests } = await chooseAndSave(json(200, profile({ avatarUrl: '/avatars/u1.jpg?v=2' })));
    expect(await screen.findByText('Your information has been updated')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const upload = requests.find((r) => r.method === 'POST' && r.path === '/api/v1/me/avatar');
    expect(upload?.body).toEqual({ image: CROPPED });
    expect(upload?.headers.get('authorization')).toBe('Bearer access-token-1');
    // One image in the page's avatar section, one in the header's button: both the new picture.
    const pictures = document.querySelectorAll('img[src="/avatars/u1.jpg?v=2"]');
    expect(pictures.length).toBeGreaterThanOrEqual(2);
    expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/me')).toHaveLength(1);
  });

  it('shows a refusal of the server (1072) in the dialog and keeps it open', async () => {
    const { dialog } = await chooseAndSave(apiError(413, 1072, 'File too large'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The file is too large');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
