import { describe, expect, it } from 'vitest';
import { classifyUsername, isEmail, isPhoneNumber, unmetPasswordRequirements, usernameLabelKey } from './validation.ts';
import { linearUsernamePatternTest } from './username-pattern.ts';
import { effectiveCapabilities, capabilities } from './capabilities.ts';
import { passwordLoginBodySchema } from './schemas/login-flow.ts';
import { snakeKeys, toCamelCase, toSnakeCase } from './case.ts';

describe('e-mail and phone rules (SPEC section 5)', () => {
  it.each([
    ['demo@example.com', true],
    ['first.last-name_1@mail.example.vn', true],
    ['a+b@example.com', false],
    ['demo@example', false],
    ['demo@e.com', false],
    ['@example.com', false],
    ['demo@@example.com', false],
  ])('isEmail(%s) is %s', (value, expected) => expect(isEmail(value)).toBe(expected));

  it.each([
    ['0912345678', true],
    ['091234567', false],
    ['09123456789', false],
    ['09123abc78', false],
  ])('isPhoneNumber(%s) is %s', (value, expected) => expect(isPhoneNumber(value)).toBe(expected));
});

describe('username policy', () => {
  it('applies the default rules for the allowed kinds only', () => {
    expect(classifyUsername('demo@example.com', ['email', 'phone'])).toBe('email');
    expect(classifyUsername('0912345678', ['email', 'phone'])).toBe('phone');
    expect(classifyUsername('0912345678', ['email'])).toBeNull();
    expect(classifyUsername('demo@example.com', ['phone'])).toBeNull();
  });

  it("applies the client's domains and regexes instead of the defaults", () => {
    const linear = linearUsernamePatternTest();
    const policy = { email: { allowedDomains: ['corp.vn'] }, phone: { regexValidation: '^84\\d{9}$' } };
    expect(classifyUsername('ann@corp.vn', ['email', 'phone'], policy, linear)).toBe('email');
    expect(classifyUsername('ann@example.com', ['email', 'phone'], policy, linear)).toBeNull();
    expect(classifyUsername('84912345678', ['email', 'phone'], policy, linear)).toBe('phone');
    expect(classifyUsername('0912345678', ['email', 'phone'], policy, linear)).toBeNull();
    expect(classifyUsername('ann@corp.vn', ['email'], { email: { regexValidation: '^[a-z]+@' } }, linear)).toBe('email');
    expect(classifyUsername('Ann9@corp.vn', ['email'], { email: { regexValidation: '^[a-z]+@' } }, linear)).toBeNull();
    expect(classifyUsername('x@corp.vn', ['email'], { email: { regexValidation: '([' } }, linear)).toBeNull();
  });

  it('names the field by the allowed kinds', () => {
    expect(usernameLabelKey(['email'])).toBe('email');
    expect(usernameLabelKey(['phone'])).toBe('phoneNumber');
    expect(usernameLabelKey(['email', 'phone'])).toBe('emailOrPhoneNumber');
  });
});

describe('password policy', () => {
  it('defaults to 6 characters and nothing else', () => {
    expect(unmetPasswordRequirements('abcdef')).toEqual([]);
    expect(unmetPasswordRequirements('abcde')).toEqual(['minLength']);
  });
  it('counts uppercase letters, digits and special characters (space and punctuation)', () => {
    const policy = { minLength: 8, uppercase: 2, number: 1, special: 1 };
    expect(unmetPasswordRequirements('Passw0rd!', policy)).toEqual(['uppercase']);
    expect(unmetPasswordRequirements('PAssw0rd ', policy)).toEqual([]);
    expect(unmetPasswordRequirements('short', policy)).toEqual(['minLength', 'uppercase', 'number', 'special']);
  });
});

describe('capabilities', () => {
  it('assumes every capability when a client lists none', () => {
    expect(effectiveCapabilities([]).size).toBe(capabilities.length);
    expect([...effectiveCapabilities(['users:email:login', 'not-a-capability'])]).toEqual(['users:email:login']);
  });
});

describe('wire format', () => {
  it('converts between snake_case and camelCase', () => {
    expect(toSnakeCase('recaptchaToken')).toBe('recaptcha_token');
    expect(toCamelCase('client_id')).toBe('clientId');
    expect(snakeKeys({ clientId: 'a', mfaToken: 'b' })).toEqual({ client_id: 'a', mfa_token: 'b' });
  });
  it('reads snake_case request bodies into camelCase', () => {
    const parsed = passwordLoginBodySchema.parse({ challenge: 'abc', username: 'u@example.com', password: 'x', client_id: 'demo-app', recaptcha_token: 't' });
    expect(parsed).toEqual({ challenge: 'abc', username: 'u@example.com', password: 'x', clientId: 'demo-app', recaptchaToken: 't' });
    expect(passwordLoginBodySchema.safeParse({ challenge: 'abc', username: 'u', password: 'x', clientId: 'camel-is-not-wire' }).data).not.toHaveProperty('clientId');
  });
});
