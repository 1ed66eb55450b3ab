import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../test/fetch-stub.ts';
import { profile, signIn } from '../../../test/account.ts';
import { renderApp } from '../../../test/render.tsx';

/** jsdom has no object URLs: the chosen file gets a stand-in address. */
function stubObjectUrls() {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, writable: true, value: vi.fn(() => 'blob:http://localhost:3000/picture-1') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: vi.fn() });
}

function setWindowWidth(width: number) {
  vi.stubGlobal('innerWidth', width);
  window.dispatchEvent(new Event('resize'));
}

async function openCropper(width = 1280) {
  stubObjectUrls();
  setWindowWidth(width);
  signIn();
  const requests = stubFetch({ 'GET /api/v1/me': json(200, profile()) });
  await renderApp('/user/profile');
  const user = userEvent.setup();
  await user.upload(await screen.findByTestId('avatar-file'), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cắt ảnh đại diện' });
  return { dialog, user, requests };
}

describe('the avatar cropper dialog', () => {
  it('opens on an image with a zoom slider from 1 to 2 in steps of 0.1', async () => {
    const { dialog, user } = await openCropper();
    expect(dialog.querySelector('img')).toHaveAttribute('src', 'blob:http://localhost:3000/picture-1');
    const slider = within(dialog).getByRole('slider', { name: 'Thu phóng' });
    expect(slider).toHaveAttribute('aria-valuemin', '1');
    expect(slider).toHaveAttribute('aria-valuemax', '2');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(slider).toHaveAttribute('step', '0.1');

    slider.focus();
    await user.keyboard('{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuenow', '1.1');
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuenow', '1.3');
    await user.keyboard('{End}{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuenow', '2');
    await user.keyboard('{Home}{ArrowLeft}');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
  });

  it('has a canvas of 470 px on a wide window', async () => {
    const { dialog } = await openCropper(1280);
    expect(within(dialog).getByTestId('avatar-crop-canvas')).toHaveStyle({ width: '470px', height: '470px' });
  });

  it('has a canvas of the window width minus 64 at 536 px and below, following a resize', async () => {
    const { dialog } = await openCropper(375);
    const canvas = within(dialog).getByTestId('avatar-crop-canvas');
    expect(canvas).toHaveStyle({ width: '311px', height: '311px' });
    act(() => setWindowWidth(536));
    expect(canvas).toHaveStyle({ width: '472px', height: '472px' });
    act(() => setWindowWidth(537));
    expect(canvas).toHaveStyle({ width: '470px', height: '470px' });
  });

  it('closes on Cancel without sending anything', async () => {
    const { dialog, user, requests } = await openCropper();
    await user.click(within(dialog).getByRole('button', { name: 'Huỷ' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost:3000/picture-1');
  });
});
