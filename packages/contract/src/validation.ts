import type { PasswordPolicy, UsernamePolicy } from './schemas/policies.ts';

/**
 * Shared validation rules (SPEC.md section 5). The server enforces them and the SPA's forms use
 * the same functions, so a value the screen accepts is a value the API accepts.
 */

/** Local part of letters, digits, underscore, dot or hyphen; domain labels of 2+ characters, 1+ dot. */
export const EMAIL_PATTERN = /^[A-Za-z0-9_.-]+@(?:[A-Za-z0-9-]{2,}\.)+[A-Za-z0-9-]{2,}$/;
export const PHONE_PATTERN = /^\d{10}$/;
export const CODE_PATTERN = /^\d+$/;

export const EMAIL_MAX_LENGTH = 254;
export const PHONE_LENGTH = 10;
export const NAME_MAX_LENGTH = 255;
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_MAX_LENGTH = EMAIL_MAX_LENGTH;
export const OTP_LENGTH = 6;
export const DEVICE_NAME_MAX_LENGTH = 255;

/** Birthdays are Unix times in seconds, from 1900-01-01 to now (checked against the clock). */
export const BIRTHDAY_MIN = -2_208_988_800;
/** Image types an avatar may be. */
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
/** Largest decoded avatar upload, in bytes. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** "Space and common punctuation". */
export const SPECIAL_CHARACTERS = ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value);
}

export function isPhoneNumber(value: string): boolean {
  return PHONE_PATTERN.test(value);
}

export function isCode(value: string): boolean {
  return CODE_PATTERN.test(value);
}

/** E-mail addresses are compared case-insensitively and stored in lower case. */
export function normalizeUsername(value: string): string {
  const trimmed = value.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 6, uppercase: 0, number: 0, special: 0 };

export type PasswordRequirement = 'minLength' | 'uppercase' | 'number' | 'special' | 'maxLength';

/** The requirements of `policy` that `password` does not meet; empty when it is acceptable. */
export function unmetPasswordRequirements(password: string, policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY): PasswordRequirement[] {
  const unmet: PasswordRequirement[] = [];
  const chars = [...password];
  if (chars.length < policy.minLength) unmet.push('minLength');
  if (chars.length > PASSWORD_MAX_LENGTH) unmet.push('maxLength');
  if (chars.filter((c) => c >= 'A' && c <= 'Z').length < policy.uppercase) unmet.push('uppercase');
  if (chars.filter((c) => c >= '0' && c <= '9').length < policy.number) unmet.push('number');
  if (chars.filter((c) => SPECIAL_CHARACTERS.includes(c)).length < policy.special) unmet.push('special');
  return unmet;
}

export type UsernameKind = 'email' | 'phone';

/** The label a screen shows for a username field that accepts these kinds. */
export function usernameLabelKey(kinds: readonly UsernameKind[]): 'email' | 'phoneNumber' | 'emailOrPhoneNumber' {
  if (kinds.includes('email') && kinds.includes('phone')) return 'emailOrPhoneNumber';
  return kinds.includes('phone') ? 'phoneNumber' : 'email';
}

/**
 * Whether `value` matches a username policy pattern (`regexValidation`), searched anywhere in the
 * value as `RegExp.prototype.test` does (anchor with ^ and $ to match the whole value). The server
 * passes a linear-time engine (`linearUsernamePatternTest`, from the contract's main entry): never
 * a backtracking one, whose time a hostile pattern can make exponential in the input.
 */
export type UsernamePatternTest = (pattern: string, value: string) => boolean;

/**
 * Which kind of username `value` is, judged by the allowed kinds and the client's username policy;
 * null when it has an invalid format. A type's policy applies only when that type is allowed;
 * without a policy the default e-mail and phone rules apply. A policy's patterns are matched by
 * `testPattern`, which a caller with a policy must choose.
 */
export function classifyUsername(value: string, allowed: readonly UsernameKind[]): UsernameKind | null;
export function classifyUsername(value: string, allowed: readonly UsernameKind[], policy: UsernamePolicy | null | undefined, testPattern: UsernamePatternTest): UsernameKind | null;
export function classifyUsername(value: string, allowed: readonly UsernameKind[], policy?: UsernamePolicy | null, testPattern?: UsernamePatternTest): UsernameKind | null {
  // Without a matcher a pattern cannot be checked, so the value is refused (the overloads make it unreachable).
  const matches = (source: string | undefined) => !source || (testPattern ? testPattern(source, value) : false);
  if (value.length === 0 || value.length > USERNAME_MAX_LENGTH) return null;
  if (value.includes('@')) {
    if (!allowed.includes('email')) return null;
    const rule = policy?.email;
    if (!rule) return isEmail(value) ? 'email' : null;
    const domain = value.slice(value.lastIndexOf('@') + 1).toLowerCase();
    const domains = rule.allowedDomains?.map((d) => d.toLowerCase()) ?? [];
    if (domains.length > 0 && !domains.includes(domain)) return null;
    if (!rule.regexValidation && !isEmail(value)) return null;
    return matches(rule.regexValidation) ? 'email' : null;
  }
  if (!allowed.includes('phone')) return null;
  const rule = policy?.phone;
  if (!rule?.regexValidation) return isPhoneNumber(value) ? 'phone' : null;
  return matches(rule.regexValidation) ? 'phone' : null;
}

export const HEX_COLOUR_PATTERN = /^#[0-9A-Fa-f]{6}$/;
