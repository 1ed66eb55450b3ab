/** Consecutive failed sign-ins before the account is locked. */
export const MAX_FAILED_LOGINS = 5;
const FIRST_LOCK_MS = 60_000;
const LONGEST_LOCK_MS = 60 * 60_000;

/**
 * When the account unlocks after `failures` consecutive failures, or null while it stays open.
 * The lock doubles with each further failure: 1, 2, 4… minutes, at most an hour.
 */
export function lockoutAfterFailure(failures: number, now: number): number | null {
  if (failures < MAX_FAILED_LOGINS) return null;
  const doublings = Math.min(failures - MAX_FAILED_LOGINS, 10);
  return now + Math.min(FIRST_LOCK_MS * 2 ** doublings, LONGEST_LOCK_MS);
}
