import { randomInt } from 'node:crypto';
import { BACKUP_CODE_ALPHABET, BACKUP_CODE_COUNT, BACKUP_CODE_LENGTH, formatBackupCode } from '@passgate/contract';
import type { ServerKeys } from '../../lib/server-keys.ts';

/** A new set of backup codes: `codes` to show once (grouped `xxxxx-xxxxx`), `hashes` to store. */
export interface BackupCodeSet {
  codes: string[];
  hashes: string[];
}

/**
 * The stored form of a normalised code. Keyed by APP_SECRET (a stolen database alone cannot be
 * checked against guesses) and bound to the user, so equal codes of two accounts never match
 * each other's rows. The codes carry ~49 bits each: a fast hash is enough, as for client secrets.
 */
export function hashBackupCode(keys: ServerKeys, userId: string, normalizedCode: string): string {
  return keys.hmac('backup-code', `${userId}\u0000${normalizedCode}`);
}

function randomCode(): string {
  let code = '';
  // randomInt draws without modulo bias from the CSPRNG.
  for (let i = 0; i < BACKUP_CODE_LENGTH; i += 1) code += BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)];
  return code;
}

export function newBackupCodeSet(keys: ServerKeys, userId: string): BackupCodeSet {
  const unique = new Set<string>();
  // A repeat within one set is astronomically unlikely, but the unique index would refuse it.
  while (unique.size < BACKUP_CODE_COUNT) unique.add(randomCode());
  const raw = [...unique];
  return { codes: raw.map(formatBackupCode), hashes: raw.map((code) => hashBackupCode(keys, userId, code)) };
}
