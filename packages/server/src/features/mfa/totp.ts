import { Secret, TOTP } from 'otpauth';
import { qrCodeDataUrl } from '../../lib/qr-code.ts';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
/** One step of clock drift either way. */
export const TOTP_WINDOW = 1;

function totp(secretBase32: string, issuer = 'Passgate', label = 'account'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The time step `code` belongs to (within one step of now), or null when it is wrong. The step,
 * not the code, is what is remembered so that each code is accepted once.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const delta = totp(secretBase32).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/** The otpauth:// URI an authenticator app scans, and its QR code as a PNG data URL. */
export async function totpEnrollment(secretBase32: string, issuer: string, label: string): Promise<{ otpauthUri: string; qrcode: string }> {
  const otpauthUri = totp(secretBase32, issuer, label).toString();
  const qrcode = await qrCodeDataUrl(otpauthUri);
  return { otpauthUri, qrcode };
}
