import type { TFunction } from 'i18next';
import { isBackupCode, OTP_LENGTH } from '@passgate/contract/rules';
import type { TokenType } from '@passgate/contract';
import type { MfaState } from '../flow/flow-state.ts';

/** How the second step is being passed: the account's own method, or one of its backup codes. */
export type SecondStepMethod = TokenType | 'backup_code';

/** The ways 'Try another way' offers: the account's enabled method, then a backup code. */
export const secondStepMethods = (tokenType: TokenType): SecondStepMethod[] => [tokenType, 'backup_code'];

/** The route state of /login/mfa, or null without a token or a known token type. */
export function readMfaState(state: unknown): MfaState | null {
  if (typeof state !== 'object' || state === null) return null;
  const record = state as Record<string, unknown>;
  const tokenType = record.tokenType;
  if (tokenType !== 'totp' && tokenType !== 'sms' && tokenType !== 'email') return null;
  if (typeof record.mfaToken !== 'string' || !record.mfaToken) return null;
  return {
    tokenType,
    mfaToken: record.mfaToken,
    ...(record.rememberBrowser === false ? { rememberBrowser: false as const } : {}),
    username: typeof record.username === 'string' ? record.username : '',
    challenge: typeof record.challenge === 'string' ? record.challenge : '',
  };
}

/** SPEC.md section 5: codes are digits only, the API takes 6. */
export function codeProblem(t: TFunction, code: string): string | null {
  if (!code) return t('login2Step.codeRequired');
  return code.length === OTP_LENGTH ? null : t('validation.codeDigits', { count: OTP_LENGTH });
}


/** A backup code: 10 letters and digits (case, spaces and hyphens do not matter). */
export function backupCodeProblem(t: TFunction, code: string): string | null {
  if (!code.trim()) return t('login2Step.backupCodeRequired');
  return isBackupCode(code) ? null : t('login2Step.backupCodeFormat');
}
