import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { changeLanguage, i18n } from '../../i18n/i18n.ts';
import { digitsOnly } from '../../lib/one-time-code.ts';
import { RecaptchaError } from '../../lib/recaptcha.ts';
import { publicClient, tenant } from '../../test/fixtures.ts';
import { accountUsernameKinds, canRegister, canResetPassword } from './flow-access.ts';
import { readPasswordExpiryState, stateUsername } from './flow-state.ts';
import {
  apiErrorField,
  checkCode,
  checkConfirmPassword,
  checkName,
  checkNewPassword,
  describeProblem,
  flowErrorText,
  passwordRequirementList,
} from './flow-validation.ts';

const policy = { minLength: 8, uppercase: 1, number: 2, special: 1 };

describe('visitor form rules (SPEC.md section 5)', () => {
  it("checks a new password against the tenant's policy, the first unmet requirement first", () => {
    expect(checkNewPassword('', policy)).toEqual({ kind: 'required', field: 'password' });
    expect(checkNewPassword('Ab1!', policy)).toEqual({ kind: 'password', requirement: 'minLength', count: 8 });
    expect(checkNewPassword('abcdefg12!', policy)).toEqual({ kind: 'password', requirement: 'uppercase', count: 1 });
    expect(checkNewPassword('Abcdefg1!', policy)).toEqual({ kind: 'password', requirement: 'number', count: 2 });
    expect(checkNewPassword('Abcdefg12', policy)).toEqual({ kind: 'password', requirement: 'special', count: 1 });
    expect(checkNewPassword('Abcdef 12', policy)).toBeUndefined();
    expect(checkNewPassword('x'.repeat(129), { minLength: 6, uppercase: 0, number: 0, special: 0 })).toEqual({ kind: 'password', requirement: 'maxLength', count: 128 });
  });

  it('lists the length always and the counts only when the policy sets them', () => {
    expect(passwordRequirementList(policy).map((r) => r.requirement)).toEqual(['minLength', 'uppercase', 'number', 'special']);
    expect(passwordRequirementList({ minLength: 6, uppercase: 0, number: 0, special: 0 })).toEqual([{ requirement: 'minLength', count: 6 }]);
  });

  it('wants a non-blank name, a matching confirmation and a 6-digit code', () => {
    expect(checkName('  ')).toEqual({ kind: 'required', field: 'name' });
    expect(checkName(' An ')).toBeUndefined();
    expect(checkConfirmPassword('Secret1', '')).toEqual({ kind: 'confirmRequired' });
    expect(checkConfirmPassword('Secret1', 'Secret2')).toEqual({ kind: 'confirmMismatch' });
    expect(checkConfirmPassword('Secret1', 'Secret1')).toBeUndefined();
    expect(checkCode('', 'activationCode')).toEqual({ kind: 'required', field: 'activationCode' });
    expect(checkCode('12345', 'recoveryCode')).toEqual({ kind: 'codeInvalid' });
    expect(checkCode('123456', 'recoveryCode')).toBeUndefined();
    expect(digitsOnly(' 12-34 56 78')).toBe('123456');
  });

  it('words the problems in the current language', async () => {
    expect(describeProblem(i18n.t, { kind: 'password', requirement: 'uppercase', count: 1 })).toBe('Mật khẩu phải có ít nhất 1 chữ cái viết hoa');
    await changeLanguage('en');
    expect(describeProblem(i18n.t, { kind: 'password', requirement: 'uppercase', count: 1 })).toBe('Password must contain at least 1 uppercase letter');
    expect(describeProblem(i18n.t, { kind: 'password', requirement: 'number', count: 2 })).toBe('Password must contain at least 2 numbers');
    expect(describeProblem(i18n.t, { kind: 'required', field: 'recoveryCode' })).toBe('Please enter your recovery code');
  });

  it('finds the field a refusal is about', () => {
    expect(apiErrorField(new ApiError(409, 1019, 'taken'))).toBe('username');
    expect(apiErrorField(new ApiError(400, 1031, 'reused'))).toBe('password');
    expect(apiErrorField(new ApiError(400, 1042, 'bad code'))).toBe('code');
    expect(apiErrorField(new ApiError(400, 1002, 'invalid', 'name'))).toBe('name');
    expect(apiErrorField(new ApiError(400, 1001, 'required', 'recaptcha_token'))).toBeNull();
    expect(apiErrorField(new ApiError(500, 1500, 'boom'))).toBeNull();
  });

  it('says reCAPTCHA failed for its own errors and the API refusing the token', async () => {
    await changeLanguage('en');
    const message = 'We could not check that you are not a robot. Please reload the page and try again.';
    expect(flowErrorText(i18n.t, new RecaptchaError('blocked'))).toBe(message);
    expect(flowErrorText(i18n.t, new ApiError(400, 1002, 'reCAPTCHA verification failed', 'recaptcha_token'))).toBe(message);
    expect(flowErrorText(i18n.t, new ApiError(400, 1020, 'taken'), 'Registration failed')).toBe('Email is already registered');
    expect(flowErrorText(i18n.t, new ApiError(400, 4242, 'odd'), 'Registration failed')).toBe('Registration failed');
  });
});

describe('visitor page guards (SPEC.md section 6)', () => {
  it('lets a client register with registrationAllowed and a register capability', () => {
    expect(canRegister(publicClient())).toBe(true);
    expect(canRegister(publicClient({ permissions: ['users:phoneNumber:register'] }))).toBe(true);
    expect(canRegister(publicClient({ permissions: ['users:email:login'] }))).toBe(false);
    expect(canRegister(publicClient({ tenant: tenant({ registrationAllowed: false }) }))).toBe(false);
  });

  it('lets a client reset passwords with resetPasswordAllowed and password:reset', () => {
    expect(canResetPassword(publicClient({ permissions: ['password:reset'] }))).toBe(true);
    expect(canResetPassword(publicClient({ permissions: ['users:email:login'] }))).toBe(false);
    expect(canResetPassword(publicClient({ tenant: tenant({ resetPasswordAllowed: false }) }))).toBe(false);
  });

  it('takes the usernames the client signs in or registers with', () => {
    expect(accountUsernameKinds(publicClient({ permissions: ['users:email:login'] }))).toEqual(['email']);
    expect(accountUsernameKinds(publicClient({ permissions: ['users:email:login', 'users:phoneNumber:register'] }))).toEqual(['email', 'phone']);
  });
});

describe('route states', () => {
  it('reads a username only when there is one', () => {
    expect(stateUsername({ username: ' a@b.co ' })).toBe('a@b.co');
    expect(stateUsername({ username: '' })).toBeNull();
    expect(stateUsername(null)).toBeNull();
  });

  it('reads the password-expiry state that Login hands over', () => {
    expect(readPasswordExpiryState(null)).toBeNull();
    expect(readPasswordExpiryState({ mfaRequired: true })).toBeNull();
    expect(
      readPasswordExpiryState({ mfaRequired: true, tokenType: 'sms', mfaToken: 'm1', username: 'a@b.co', passwordWarning: { expiresAt: 1, daysLeft: 2 } }),
    ).toEqual({ mfaRequired: true, tokenType: 'sms', mfaToken: 'm1', redirectTo: undefined, username: 'a@b.co', passwordWarning: { expiresAt: 1, daysLeft: 2 } });
  });
});
