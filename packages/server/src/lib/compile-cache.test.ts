import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateCompileCacheDir } from './compile-cache.ts';

const uid = process.getuid?.();

describe.skipIf(uid === undefined)("the compile cache's folder", () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'passgate-cache-test-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));
  const mine = () => join(tmp, `passgate-compile-cache-${uid}`);

  it("is this user's own folder, made private, and made again the next time", () => {
    expect(privateCompileCacheDir(tmp)).toBe(mine());
    expect(privateCompileCacheDir(tmp)).toBe(mine());
  });

  it('is refused when another user could write to it', () => {
    mkdirSync(mine());
    chmodSync(mine(), 0o777);
    expect(privateCompileCacheDir(tmp)).toBeUndefined();
  });

  it('is refused when it is a link to a folder elsewhere', () => {
    const elsewhere = join(tmp, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, mine());
    expect(privateCompileCacheDir(tmp)).toBeUndefined();
  });

  it.skipIf(uid !== 0)('is refused when another user made it first', () => {
    mkdirSync(mine(), { mode: 0o700 });
    chownSync(mine(), 4242, 4242);
    expect(privateCompileCacheDir(tmp)).toBeUndefined();
  });
});
