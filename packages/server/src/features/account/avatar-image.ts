import { lazy } from '../../lib/lazy.ts';
import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES, ErrorCode } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';

/** Side of the stored (square) avatar, in pixels. */
export const AVATAR_SIZE = 256;
/** What every avatar is stored as: WebP keeps transparency and is small. */
export const AVATAR_CONTENT_TYPE = 'image/webp';
/** Decompression-bomb guard: an upload may not decode to more pixels than this. */
export const AVATAR_MAX_INPUT_PIXELS = 40_000_000;

/** sharp and libvips (about 20 MB) load with the first picture, not with every process. */
const loadSharp = lazy(async () => {
  const { default: sharp } = await import('sharp');
  // A server decodes each upload once: libvips' operation cache would only hold memory.
  sharp.cache(false);
  return sharp;
});

type AllowedType = (typeof AVATAR_MIME_TYPES)[number];

/** sharp's name of a format → the MIME type it is, for the formats an avatar may be. */
const FORMAT_TYPES: Record<string, AllowedType> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),([\s\S]*)$/;

const notAnImage = (message = 'The image cannot be decoded') => new ApiError(ErrorCode.ImageInvalid, 400, 'image', message);

export interface UploadedImage {
  bytes: Buffer;
  /** The type the client declared (data: URL or mime_type), lower case, when it declared one. */
  declaredType: string | undefined;
}

/**
 * The bytes of an upload: `image` is plain base64 (its type, if any, in `mimeType`) or a
 * `data:image/…;base64,` URL. Invalid base64 or an empty image: 1070; a declared type that is not an
 * allowed image type: 1071; more than AVATAR_MAX_BYTES decoded: 1072 (413).
 */
export function decodeUpload(image: string, mimeType: string | undefined): UploadedImage {
  let base64 = image;
  let declared = mimeType;
  const dataUrl = DATA_URL.exec(image);
  if (dataUrl) {
    if (!dataUrl[2]?.toLowerCase().split(';').includes('base64')) throw notAnImage('The image must be base64 encoded');
    declared = dataUrl[1] || undefined;
    base64 = dataUrl[3] ?? '';
  }
  const declaredType = declared?.split(';')[0]?.trim().toLowerCase() || undefined;
  if (declaredType !== undefined && !(AVATAR_MIME_TYPES as readonly string[]).includes(declaredType)) {
    throw new ApiError(ErrorCode.MimeTypeNotAllowed, 400, dataUrl ? 'image' : 'mime_type', `The MIME type ${declaredType} is not allowed`);
  }
  base64 = base64.replace(/\s+/g, '');
  if (!BASE64.test(base64) || base64.length % 4 !== 0) throw notAnImage('The image is not valid base64');
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  if ((base64.length / 4) * 3 - padding > AVATAR_MAX_BYTES) throw tooLarge();
  return { bytes: Buffer.from(base64, 'base64'), declaredType };
}

export function tooLarge(): ApiError {
  return new ApiError(ErrorCode.FileTooLarge, 413, 'image', `The image is larger than ${AVATAR_MAX_BYTES / (1024 * 1024)} MB`);
}

/**
 * Decodes the image for real and answers it as a square AVATAR_SIZE WebP, centred and cropped to
 * cover, turned upright by its EXIF orientation, with no metadata left. Anything sharp cannot
 * decode, a format that is not an allowed image type (an SVG, a PDF named .png), or an image of
 * more than AVATAR_MAX_INPUT_PIXELS: 1070. (A declared type that differs from the real one among
 * the allowed types is accepted: the image is re-encoded anyway.)
 */
export async function normaliseAvatar(upload: UploadedImage): Promise<Buffer> {
  const options = { limitInputPixels: AVATAR_MAX_INPUT_PIXELS, failOn: 'error' } as const;
  let format: string | undefined;
  let pixels = 0;
  const sharp = await loadSharp();
  try {
    // The header only: the pixel count is checked below, with a message that says so.
    const metadata = await sharp(upload.bytes, { limitInputPixels: false }).metadata();
    format = metadata.format;
    pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  } catch {
    throw notAnImage();
  }
  if (!format || !FORMAT_TYPES[format]) throw notAnImage('The file is not a JPEG, PNG, WebP or GIF image');
  if (pixels <= 0 || pixels > AVATAR_MAX_INPUT_PIXELS) throw notAnImage('The image has too many pixels');
  try {
    return await sharp(upload.bytes, options)
      .autoOrient()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw notAnImage();
  }
}
