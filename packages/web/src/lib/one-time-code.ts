import { OTP_LENGTH } from '@passgate/contract/rules';

/** Only the digits of what was typed or pasted, at most 6 (so "123 456" pastes whole). */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}
