const FIRST_LOCK_MS = 60_000;
const LONGEST_LOCK_MS = 60 * 60_000;

/**
 * When the account unlocks after `failures` consecutive failures, or null while it stays open.
 * From `threshold` failures on, the lock doubles with each further failure: 1, 2, 4… minutes, at
 * most an hour.
 */
export function lockoutAfterFailure(failures: number, threshold: number, now: number): number | null {
  if (failures < threshold) return null;
  const doublings = Math.min(failures - threshold, 10);
  return now + Math.min(FIRST_LOCK_MS * 2 ** doublings, LONGEST_LOCK_MS);
}
