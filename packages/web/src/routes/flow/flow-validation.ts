import { OTP_LENGTH, PASSWORD_MAX_LENGTH, unmetPasswordRequirements, type PasswordRequirement } from '@passgate/contract/rules';
import type { PasswordPolicy, UsernameKind, UsernamePolicy } from '@passgate/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/errors.ts';
import { errorText } from '../../i18n/error-message.ts';
import { RecaptchaError } from '../../lib/recaptcha.ts';
import { checkUsername } from '../login/login-validation.ts';

/** The fields of the visitor forms. */
export type FlowField = 'username' | 'name' | 'password' | 'confirmPassword' | 'code';
type UsernameLabel = 'email' | 'phoneNumber' | 'emailOrPhoneNumber';
type CodeLabel = 'activationCode' | 'recoveryCode';

/** What is wrong with a field, translated when shown (so a language switch re-words it). */
export type FlowProblem =
  | { kind: 'required'; field: UsernameLabel | 'name' | 'password' | 'newPassword' | CodeLabel }
  | { kind: 'usernameInvalid'; username: string }
  | { kind: 'password'; requirement: PasswordRequirement; count: number }
  | { kind: 'confirmRequired' }
  | { kind: 'confirmMismatch' }
  | { kind: 'codeInvalid' }
  /** The API refused the value (the message of its code). */
  | { kind: 'server'; error: unknown };

export type FlowProblems = Partial<Record<FlowField, FlowProblem>>;

/** SPEC.md section 5: an allowed kind of username, following the client's username policy. */
export function checkFlowUsername(username: string, label: UsernameLabel, kinds: readonly UsernameKind[], policy: UsernamePolicy | null | undefined): FlowProblem | undefined {
  const problem = checkUsername(username, label, kinds, policy);
  if (!problem) return undefined;
  return problem.kind === 'usernameInvalid' ? problem : { kind: 'required', field: label };
}

/** SPEC.md section 5: the name on register must not be blank. */
export function checkName(name: string): FlowProblem | undefined {
  return name.trim() ? undefined : { kind: 'required', field: 'name' };
}

/** The first requirement of the tenant's password policy that `password` misses. */
export function checkNewPassword(password: string, policy: PasswordPolicy, field: 'password' | 'newPassword' = 'password'): FlowProblem | undefined {
  if (!password) return { kind: 'required', field };
  const [requirement] = unmetPasswordRequirements(password, policy);
  if (!requirement) return undefined;
  return { kind: 'password', requirement, count: requirement === 'maxLength' ? PASSWORD_MAX_LENGTH : policy[requirement] };
}

export function checkConfirmPassword(password: string, confirm: string): FlowProblem | undefined {
  if (!confirm) return { kind: 'confirmRequired' };
  return confirm === password ? undefined : { kind: 'confirmMismatch' };
}

/** Codes are digits only; the API takes exactly 6 of them. */
export function checkCode(code: string, label: CodeLabel): FlowProblem | undefined {
  if (!code) return { kind: 'required', field: label };
  return new RegExp(`^\\d{${OTP_LENGTH}}$`).test(code) ? undefined : { kind: 'codeInvalid' };
}

/** The requirements a password policy sets, for the requirements list: the length always, the counts when set. */
export function passwordRequirementList(policy: PasswordPolicy): { requirement: 'minLength' | 'uppercase' | 'number' | 'special'; count: number }[] {
  return [
    { requirement: 'minLength' as const, count: policy.minLength },
    { requirement: 'uppercase' as const, count: policy.uppercase },
    { requirement: 'number' as const, count: policy.number },
    { requirement: 'special' as const, count: policy.special },
  ].filter((item) => item.requirement === 'minLength' || item.count > 0);
}

/** The field a refused call names: by the envelope's field, else by what its code is about. */
export function apiErrorField(error: unknown): FlowField | null {
  if (!(error instanceof ApiError) || error.status >= 500) return null;
  switch (error.code) {
    case 1014:
    case 1015:
    case 1016:
    case 1018:
    case 1019:
    case 1020:
      return 'username';
    case 1031:
      return 'password';
    case 1040:
    case 1041:
    case 1042:
    case 1043:
      return 'code';
  }
  const field = error.field;
  if (field === 'phone_number') return 'username';
  return field === 'username' || field === 'name' || field === 'password' || field === 'code' ? field : null;
}

/**
 * The field of this screen a refusal is about, if the screen shows that field: the refusal is then
 * said there, once, and not in the banner as well (a field the screen lacks leaves it to the banner).
 */
export function refusedField<F extends FlowField>(error: unknown, fields: readonly F[]): F | null {
  const field = apiErrorField(error);
  return fields.find((shown) => shown === field) ?? null;
}

function isRecaptchaFailure(error: unknown): boolean {
  return error instanceof RecaptchaError || (error instanceof ApiError && error.status < 500 && error.field === 'recaptcha_token');
}

/**
 * The message of a failed visitor call: reCAPTCHA failures say so; a code the catalogue knows
 * shows its message; another refusal shows `fallback` when given (e.g. 'Registration failed').
 */
export function flowErrorText(t: TFunction, error: unknown, fallback?: string): string | null {
  if (isRecaptchaFailure(error)) return t('messages.recaptchaFailed');
  if (fallback && error instanceof ApiError && error.status < 500) {
    const messages: Partial<Record<string, string>> = t('errors', { returnObjects: true });
    if (messages[error.code] === undefined) return fallback;
  }
  return errorText(t, error);
}

/** The text of a problem, in the current language. */
export function describeProblem(t: TFunction, problem: FlowProblem | undefined): string | null {
  if (!problem) return null;
  switch (problem.kind) {
    case 'required':
      return t('validation.required', { field: t(`fields.${problem.field}`).toLocaleLowerCase() });
    case 'usernameInvalid':
      return t('validation.usernameInvalid', { username: problem.username });
    case 'password':
      switch (problem.requirement) {
        case 'minLength':
          return t('validation.passwordMinLength', { count: problem.count });
        case 'maxLength':
          return t('validation.passwordTooLong', { count: problem.count });
        case 'uppercase':
          return t('validation.passwordUppercase', { count: problem.count });
        case 'number':
          return t('validation.passwordNumber', { count: problem.count });
        case 'special':
          return t('validation.passwordSpecial', { count: problem.count });
      }
      return null;
    case 'confirmRequired':
      return t('validation.confirmPasswordRequired');
    case 'confirmMismatch':
      return t('validation.passwordMismatch');
    case 'codeInvalid':
      return t('validation.codeDigits', { count: OTP_LENGTH });
    case 'server':
      return flowErrorText(t, problem.error);
  }
}
