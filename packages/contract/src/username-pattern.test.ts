import { describe, expect, it } from 'vitest';
import { linearUsernamePatternTest, usernamePatternProblem } from './username-pattern.ts';
import { classifyUsername } from './validation.ts';
import { clientUpdateSchema } from './schemas/admin.ts';
import { usernamePolicySchema } from './schemas/policies.ts';

describe('username policy patterns (linear time)', () => {
  it('matches catastrophic-backtracking patterns in linear time, on inputs far longer than a username', () => {
    const test = linearUsernamePatternTest();
    // A backtracking engine takes about 2^n steps for these; 10,000 characters would never finish.
    const hostile = '1'.repeat(10_000) + 'x';
    expect(test('^(\\d+)+$', hostile)).toBe(false);
    expect(test('^(\\d|\\d)*$', hostile)).toBe(false);
    expect(test('^((\\d*)*)*x$', '1'.repeat(10_000) + 'y')).toBe(false);
    expect(test('^(\\d+)+$', '1'.repeat(10_000))).toBe(true);
    const policy = { phone: { regexValidation: '^(\\d+)+$' } };
    expect(classifyUsername('1111111111111111111111111111x', ['phone'], policy, test)).toBeNull();
    expect(classifyUsername('0912345678', ['phone'], policy, test)).toBe('phone');
  });

  it('keeps the meaning of ordinary patterns: searched anywhere unless anchored, case-sensitive', () => {
    const test = linearUsernamePatternTest();
    expect(test('^09\\d{8}$', '0912345678')).toBe(true);
    expect(test('^09\\d{8}$', '09123456789')).toBe(false);
    expect(test('^\\+849\\d{8}$', '+84912345678')).toBe(true);
    expect(test('corp', 'ann@corp.vn')).toBe(true);
    expect(test('^[a-z]+@', 'Ann@corp.vn')).toBe(false);
    expect(test('^(?:\\+84|0)9\\d{8}$', '0912345678')).toBe(true);
    expect(test('^(?<cc>84)\\d{9}$', '84912345678')).toBe(true);
  });

  it('refuses backreferences and lookarounds, and patterns that are not regular expressions', () => {
    for (const source of ['^(\\d)\\1+$', '^(?<d>\\d)\\k<d>$', '^(?=\\d{10}$)09', '^(?!00)\\d+$', '(?<=@)corp', '(?<!x)@corp']) {
      expect(usernamePatternProblem(source), source).toMatch(/not supported .*linear time/);
    }
    expect(usernamePatternProblem('([')).toMatch(/not a valid regular expression/);
    expect(usernamePatternProblem('^(\\d+)+$')).toBeNull();
    expect(usernamePatternProblem('^09\\d{8}$')).toBeNull();
  });

  it('a stored pattern the engine cannot run matches nothing, and says so', () => {
    const heard: string[] = [];
    const test = linearUsernamePatternTest((pattern) => heard.push(pattern));
    expect(classifyUsername('0912345678', ['phone'], { phone: { regexValidation: '^(\\d)\\1' } }, test)).toBeNull();
    expect(heard).toEqual(['^(\\d)\\1']);
  });

  it('the written schema refuses such a pattern naming its field; the read schema still reads it', () => {
    const result = clientUpdateSchema.safeParse({ usernamePolicy: { email: { regexValidation: '^[a-z]+@' }, phone: { regexValidation: '^(?=09)\\d{10}$' } } });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['usernamePolicy.phone.regexValidation']);
    expect(clientUpdateSchema.safeParse({ usernamePolicy: { phone: { regexValidation: '^09\\d{8}$' } } }).success).toBe(true);
    expect(usernamePolicySchema.safeParse({ phone: { regexValidation: '^(?=09)\\d{10}$' } }).success).toBe(true);
  });
});
