import { lstatSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The folder for Node's compile cache (Node 22.1 and later): this user's own, under `tmp`, or
 * undefined when it cannot be trusted. Node runs the compiled code it finds there, so the folder
 * must be this user's alone: Node's default (`node-compile-cache` in the temporary directory,
 * shared by every user of the machine) would let another account that created it first hand the
 * provider code of its own.
 */
export function privateCompileCacheDir(tmp: string, uid: number | undefined = process.getuid?.()): string | undefined {
  if (uid === undefined) return undefined;
  const dir = join(tmp, `passgate-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = lstatSync(dir);
    // Made by someone else, reached through a link, or open to others: not ours to trust.
    return folder.isDirectory() && folder.uid === uid && (folder.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}
