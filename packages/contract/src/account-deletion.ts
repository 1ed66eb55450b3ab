/**
 * Deleting one's own account (DELETE /api/v1/me) needs proof and a typed confirmation. The rules
 * live here so the server and the SPA agree on what to type and where the code goes.
 */

interface DeletableAccount {
  email: string | null;
  phoneNumber: string | null;
}

interface CodeRecipient extends DeletableAccount {
  emailVerified: boolean;
  phoneNumberVerified: boolean;
}

/** Typed when the account has neither an e-mail address nor a phone number. */
export const DELETION_CONFIRMATION_FALLBACK = 'DELETE';

/**
 * What the user types to confirm: the account's own e-mail address, else its phone number. It reads
 * the same in every language and cannot be typed by habit, unlike a 'yes'.
 */
export function deletionConfirmationOf(account: DeletableAccount): string {
  return account.email ?? account.phoneNumber ?? DELETION_CONFIRMATION_FALLBACK;
}

/** Whether `typed` is the confirmation, ignoring surrounding spaces and the case of an e-mail address. */
export function isDeletionConfirmed(account: DeletableAccount, typed: string): boolean {
  const expected = deletionConfirmationOf(account);
  const value = typed.trim();
  return expected.includes('@') ? value.toLowerCase() === expected.toLowerCase() : value === expected;
}

/**
 * Where the deletion code of an account without a password goes: its verified e-mail address, else
 * its verified phone number; null when it has neither (it cannot prove itself by code).
 */
export function deletionCodeRecipientOf(account: CodeRecipient): { channel: 'email' | 'phone'; to: string } | null {
  if (account.email && account.emailVerified) return { channel: 'email', to: account.email };
  if (account.phoneNumber && account.phoneNumberVerified) return { channel: 'phone', to: account.phoneNumber };
  return null;
}
