import { DEFAULT_PASSWORD_POLICY, PASSWORD_MAX_LENGTH, classifyUsername, unmetPasswordRequirements } from '@passgate/contract/rules';
import type { UsernameKind, UsernamePolicy } from '@passgate/contract';
import { browserUsernamePatternTest } from './username-pattern-hint.ts';

/** What is wrong with a field, translated when shown (so a language switch re-words it). */
export type FieldProblem =
  | { kind: 'required'; field: 'email' | 'phoneNumber' | 'emailOrPhoneNumber' | 'password' }
  | { kind: 'usernameInvalid'; username: string }
  | { kind: 'passwordTooShort'; count: number }
  | { kind: 'passwordTooLong'; count: number };

/**
 * SPEC.md section 5: the username must be an allowed kind and follow the client's username policy
 * (its patterns as far as the browser can check them safely: username-pattern-hint.ts).
 */
export function checkUsername(
  username: string,
  label: 'email' | 'phoneNumber' | 'emailOrPhoneNumber',
  kinds: readonly UsernameKind[],
  policy: UsernamePolicy | null | undefined,
): FieldProblem | undefined {
  if (!username) return { kind: 'required', field: label };
  return classifyUsername(username, kinds, policy, browserUsernamePatternTest) ? undefined : { kind: 'usernameInvalid', username };
}

/** Login checks the password against the default rule (SPEC.md section 5). */
export function checkPassword(password: string): FieldProblem | undefined {
  if (!password) return { kind: 'required', field: 'password' };
  const unmet = unmetPasswordRequirements(password, DEFAULT_PASSWORD_POLICY);
  if (unmet.includes('minLength')) return { kind: 'passwordTooShort', count: DEFAULT_PASSWORD_POLICY.minLength };
  if (unmet.includes('maxLength')) return { kind: 'passwordTooLong', count: PASSWORD_MAX_LENGTH };
  return undefined;
}
