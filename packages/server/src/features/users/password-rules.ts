import { unmetPasswordRequirements, type PasswordPolicy, type PasswordRequirement } from '@passgate/contract';
import { verifySecret } from '../../lib/passwords.ts';
import type { UserQueries } from './users.queries.ts';

/**
 * The password rules every way of setting a password shares (registration, recovery, the command
 * line): the tenant's policy (SPEC.md section 5) and its history of recently used passwords.
 */

const REQUIREMENT_TEXT: Record<PasswordRequirement, (policy: PasswordPolicy) => string> = {
  minLength: (p) => `at least ${p.minLength} characters`,
  maxLength: () => 'at most 128 characters',
  uppercase: (p) => `at least ${p.uppercase} uppercase letter${p.uppercase === 1 ? '' : 's'}`,
  number: (p) => `at least ${p.number} digit${p.number === 1 ? '' : 's'}`,
  special: (p) => `at least ${p.special} special character${p.special === 1 ? '' : 's'}`,
};

/** What the password lacks under `policy`, in words ('at least 8 characters, at least 1 digit'); null when it is acceptable. */
export function unmetPasswordText(password: string, policy: PasswordPolicy): string | null {
  const unmet = unmetPasswordRequirements(password, policy);
  return unmet.length === 0 ? null : unmet.map((r) => REQUIREMENT_TEXT[r](policy)).join(', ');
}

/**
 * Whether `password` is one of the user's `historySize` most recent passwords, the current one
 * counted among them (Keycloak's 'not recently used'): size 1 refuses only the current password,
 * size 3 the current one and the two before it. Size 0 keeps no history: any password is accepted,
 * the current one included.
 */
export async function isRecentlyUsedPassword(
  users: Pick<UserQueries, 'recentPasswordHashes'>,
  user: { id: string; password_hash: string | null },
  password: string,
  historySize: number,
): Promise<boolean> {
  if (historySize <= 0) return false;
  // The history's newest row is the current password; the current hash is checked as well in case
  // an account has no history rows (created before history was kept).
  const hashes = new Set(await users.recentPasswordHashes(user.id, historySize));
  if (user.password_hash) hashes.add(user.password_hash);
  for (const hash of hashes) {
    if (await verifySecret(hash, password)) return true;
  }
  return false;
}
