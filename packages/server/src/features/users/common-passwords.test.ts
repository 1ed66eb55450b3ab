import { describe, expect, it } from 'vitest';
import { buildCommonPasswordList, isCommonPassword, loadCommonPasswordList } from './common-passwords.ts';

describe('the list of common breached passwords', () => {
  it('holds well over the top 100,000 and finds entries case-insensitively', async () => {
    const list = await loadCommonPasswordList();
    expect(list.size).toBeGreaterThan(400_000);
    for (const password of ['123456', 'password', 'password123', 'PASSWORD123', 'Qwerty123', 'iloveyou1', 'dragon']) {
      expect(await isCommonPassword(password)).toBe(true);
    }
    for (const password of ['Harbour-lights-93', 'Lantern-42', 'Passw0rd!', '', 'zz\nqq']) {
      expect(await isCommonPassword(password)).toBe(false);
    }
  });

  it('finds the first, the last and non-ASCII entries of a list, and nothing between them', () => {
    const list = buildCommonPasswordList('mật khẩu\nBravo\n\nalpha\nbravo\nzulu\n');
    expect(list.size).toBe(4);
    for (const password of ['ALPHA', 'bravo', 'Zulu', 'MẬT KHẨU']) expect(list.has(password)).toBe(true);
    for (const password of ['alph', 'alphaa', 'charlie', 'zulu ', 'mật', '']) expect(list.has(password)).toBe(false);
  });
});
