import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual, hkdfSync } from 'node:crypto';

/**
 * The server's own secret: keyed hashes of one-time codes and tokens, and encryption of secrets
 * that must be read back (TOTP seeds, reCAPTCHA secrets). Sub-keys are derived per purpose.
 */
export interface ServerKeys {
  hmac(purpose: string, value: string): string;
  hmacEquals(purpose: string, value: string, expected: string): boolean;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

export function createServerKeys(secret: string): ServerKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.alloc(0), info, 32));
  const macKey = derive('passgate:hmac');
  const encKey = derive('passgate:encryption');

  const hmac = (purpose: string, value: string) => createHmac('sha256', macKey).update(`${purpose}\u0000${value}`).digest('base64url');

  return {
    hmac,
    hmacEquals(purpose, value, expected) {
      const actual = Buffer.from(hmac(purpose, value));
      const wanted = Buffer.from(expected);
      return actual.length === wanted.length && timingSafeEqual(actual, wanted);
    },
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', encKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown sealed value format');
      const decipher = createDecipheriv('aes-256-gcm', encKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
