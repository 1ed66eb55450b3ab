import { lazy } from './lazy.ts';

const loadQrCode = lazy(async () => (await import('qrcode')).default);

/** A QR code of `text` as a PNG data URL, 300 px, medium error correction. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  return (await loadQrCode()).toDataURL(text, { type: 'image/png', errorCorrectionLevel: 'M', margin: 1, width: 300 });
}
