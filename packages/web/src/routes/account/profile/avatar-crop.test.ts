import { describe, expect, it } from 'vitest';
import { AVATAR_ZOOM, cropCanvasSize, isImageFile, snapZoom } from './avatar-crop.ts';

describe('the avatar cropper (SPEC.md section 9)', () => {
  it('has a canvas of 470 px, or the window width minus 64 at 536 px and below', () => {
    expect(cropCanvasSize(1280)).toBe(470);
    expect(cropCanvasSize(600)).toBe(470);
    expect(cropCanvasSize(537)).toBe(470);
    expect(cropCanvasSize(536)).toBe(472);
    expect(cropCanvasSize(414)).toBe(350);
    expect(cropCanvasSize(375)).toBe(311);
    expect(cropCanvasSize(320)).toBe(256);
  });

  it('zooms from 1 to 2 in steps of 0.1', () => {
    expect(AVATAR_ZOOM).toEqual({ min: 1, max: 2, step: 0.1 });
  });

  it('keeps every zoom on the 0.1 grid between 1 and 2', () => {
    expect(snapZoom(1.1 + 0.1 + 0.1)).toBe(1.3);
    expect(snapZoom(1.26)).toBe(1.3);
    expect(snapZoom(1.04)).toBe(1);
    expect(snapZoom(0.5)).toBe(1);
    expect(snapZoom(2.7)).toBe(2);
  });

  it('takes only image MIME types', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml', 'image/heic']) expect(isImageFile({ type }), type).toBe(true);
    for (const type of ['application/pdf', 'text/plain', '', 'video/mp4', 'image/', 'application/x-image']) expect(isImageFile({ type }), type).toBe(false);
  });
});
