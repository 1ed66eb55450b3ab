import { describe, expect, it } from 'vitest';
import { browserChecksPattern, browserUsernamePatternTest } from './username-pattern-hint.ts';
import { checkUsername } from './login-validation.ts';

describe("the browser's check of username policy patterns", () => {
  it('checks ordinary patterns as before', () => {
    for (const source of ['^09\\d{8}$', '^\\+849\\d{8}$', '^84\\d{9}$', '^[a-z]+@', '^(?:\\+84|0)9\\d{8}$', '^(\\+84|0)?9\\d{8}$', '^(03|05|07|08|09)\\d{8}$', '[\\]]x{2,}', '@corp\\.vn$']) {
      expect(browserChecksPattern(source), source).toBe(true);
    }
    expect(browserUsernamePatternTest('^09\\d{8}$', '0912345678')).toBe(true);
    expect(browserUsernamePatternTest('^09\\d{8}$', '0812345678')).toBe(false);
    expect(checkUsername('Ann@corp.vn', 'email', ['email'], { email: { regexValidation: '^[a-z]+@' } })).toEqual({ kind: 'usernameInvalid', username: 'Ann@corp.vn' });
    expect(checkUsername('ann@corp.vn', 'email', ['email'], { email: { regexValidation: '^[a-z]+@' } })).toBeUndefined();
  });

  it('leaves to the server patterns whose backtracking is not bounded, so the page never freezes', () => {
    for (const source of ['^(\\d+)+$', '^(\\d|\\d)*$', '^(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)(a|a)b', '\\d*\\d*\\d*x', '^(?=\\d)\\d+$', '^(\\d)\\1$', '(?<!x)@', '([', '(?i)x']) {
      expect(browserChecksPattern(source), source).toBe(false);
    }
    // The attack's own input: answered at once (passes here; the server refuses it).
    const policy = { phone: { regexValidation: '^(\\d+)+$' } };
    expect(checkUsername('1111111111111111111111111111x', 'phoneNumber', ['phone'], policy)).toBeUndefined();
    expect(checkUsername(`${'1'.repeat(253)}x`, 'phoneNumber', ['phone'], policy)).toBeUndefined();
  });
});
