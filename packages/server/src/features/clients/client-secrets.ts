import type { ServerKeys } from '../../lib/server-keys.ts';
import { verifySecret } from '../../lib/passwords.ts';

/**
 * Client secrets are machine-generated 256-bit values, not passwords: nothing is gained by making
 * each check cost an argon2 hash (which, verified on every token request, capped a confidential
 * client's refresh grants at a few dozen a second). They are stored as a keyed HMAC-SHA-256 digest
 * under APP_SECRET, as token stores keep tokens, and compared in constant time. Rows hashed with
 * argon2id by earlier versions still verify, once, and are then rewritten in this form.
 */

const PREFIX = 'hmac-sha256$';
const PURPOSE = 'client-secret';

export function digestClientSecret(keys: ServerKeys, secret: string): string {
  return `${PREFIX}${keys.hmac(PURPOSE, secret)}`;
}

export interface ClientSecretCheck {
  matches: boolean;
  /** The digest to store instead of `stored`, when `stored` is in an older form and the secret matched. */
  upgradeTo?: string;
}

export async function checkClientSecret(keys: ServerKeys, stored: string, presented: string): Promise<ClientSecretCheck> {
  if (stored.startsWith(PREFIX)) return { matches: keys.hmacEquals(PURPOSE, presented, stored.slice(PREFIX.length)) };
  if (stored.startsWith('$argon2')) {
    const matches = await verifySecret(stored, presented);
    return matches ? { matches, upgradeTo: digestClientSecret(keys, presented) } : { matches };
  }
  return { matches: false };
}
