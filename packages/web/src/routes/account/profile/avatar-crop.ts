import { useSyncExternalStore } from 'react';

/** SPEC.md sections 5 and 9: the zoom of the avatar cropper runs from 1 to 2 in steps of 0.1. */
export const AVATAR_ZOOM = { min: 1, max: 2, step: 0.1 } as const;

/** A zoom on the 0.1 grid within 1 to 2 (1.3, never 1.3000000000000003), from the slider, wheel or pinch. */
export function snapZoom(value: number): number {
  const steps = Math.round((value - AVATAR_ZOOM.min) / AVATAR_ZOOM.step);
  const snapped = Math.round((AVATAR_ZOOM.min + steps * AVATAR_ZOOM.step) * 10) / 10;
  return Math.min(AVATAR_ZOOM.max, Math.max(AVATAR_ZOOM.min, snapped));
}

/** The cropper's canvas: 470 px, or the window's width minus 64 when the window is 536 px or narrower. */
export const CROP_CANVAS_SIZE = 470;
export const NARROW_WINDOW = 536;

export function cropCanvasSize(windowWidth: number): number {
  return windowWidth <= NARROW_WINDOW ? Math.max(0, windowWidth - 64) : CROP_CANVAS_SIZE;
}

/** The side of the square picture sent to the server (it normalises it again). */
export const AVATAR_OUTPUT_SIZE = 512;

/** Only image types may be chosen (SPEC.md section 5); anything else is refused before sending. */
export function isImageFile(file: Pick<File, 'type'>): boolean {
  return /^image\/[\w.+-]+$/i.test(file.type);
}

/** The part of the picture to keep, in the picture's own pixels. */
export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('The image cannot be decoded'));
    image.src = src;
  });
}

/**
 * Draws `area` of the picture at `src` on a square canvas and returns it as a JPEG data: URL (the
 * type travels with it). A white ground stands in for transparency, which JPEG cannot keep.
 */
export async function cropToDataUrl(src: string, area: CropArea, size: number = AVATAR_OUTPUT_SIZE): Promise<string> {
  const image = await loadImage(src);
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('No 2D canvas');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, size, size);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, size, size);
  return canvas.toDataURL('image/jpeg', 0.9);
}

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The window's width, following resizes (and a phone turned sideways). */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribeToResize,
    () => window.innerWidth,
    () => 1024,
  );
}
