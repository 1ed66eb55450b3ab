/**
 * Backup codes of 2-step verification: ten single-use codes of ten characters each, from an
 * alphabet without the characters people confuse when copying by hand (0/o, 1/l/i). About 49
 * bits each, so a keyed hash is enough to store them and five tries per sign-in cannot guess one.
 * Shown grouped as `xxxxx-xxxxx`; case, spaces and hyphens do not matter when typed back.
 */
export const BACKUP_CODE_COUNT = 10;
export const BACKUP_CODE_LENGTH = 10;
export const BACKUP_CODE_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
export const BACKUP_CODE_PATTERN = new RegExp(`^[${BACKUP_CODE_ALPHABET}]{${BACKUP_CODE_LENGTH}}$`);
/** What a person may type: the code with any case, spaces and hyphens (a little room for stray ones). */
export const BACKUP_CODE_INPUT_MAX_LENGTH = 24;

/** The form a typed backup code is compared in: lower case, without spaces or hyphens. */
export function normalizeBackupCode(value: string): string {
  return value.toLowerCase().replace(/[\s-]+/g, '');
}

export function isBackupCode(value: string): boolean {
  return BACKUP_CODE_PATTERN.test(normalizeBackupCode(value));
}

/** `abcde23456` → `abcde-23456`, the way codes are shown and downloaded. */
export function formatBackupCode(code: string): string {
  const half = Math.ceil(code.length / 2);
  return `${code.slice(0, half)}-${code.slice(half)}`;
}
