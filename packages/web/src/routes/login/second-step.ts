import type { TFunction } from 'i18next';
import { OTP_LENGTH } from '@passgate/contract/rules';
import type { MfaState } from '../flow/flow-state.ts';

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
    username: typeof record.username === 'string' ? record.username : '',
    challenge: typeof record.challenge === 'string' ? record.challenge : '',
  };
}

/** SPEC.md section 5: codes are digits only, the API takes 6. */
export function codeProblem(t: TFunction, code: string): string | null {
  if (!code) return t('login2Step.codeRequired');
  return code.length === OTP_LENGTH ? null : t('validation.codeDigits', { count: OTP_LENGTH });
}

