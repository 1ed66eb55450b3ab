import { z } from 'zod';
import { BACKUP_CODE_INPUT_MAX_LENGTH, BACKUP_CODE_PATTERN, normalizeBackupCode } from '../backup-codes.ts';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema, passwordSchema } from './common.ts';
import { profileSchema } from './account.ts';
import { tokenTypeSchema } from './login-flow.ts';

/**
 * 2-step verification (SPEC.md sections 3, 4 and 7): the second step of a sign-in, and the MFA
 * settings of the account area. Bodies travel snake_case, answers camelCase.
 */

/** The MFA token `POST /api/v1/users/login` answers: 32 random bytes, base64url. */
export const mfaTokenSchema = z.string().min(16).max(128).regex(/^[A-Za-z0-9_-]+$/);
/** A 6-digit code (authenticator app, SMS or e-mail); only digits are checked beyond the length. */
export const mfaCodeSchema = z.string().trim().regex(/^\d{6}$/, 'The code is 6 digits');

/** POST /api/v1/mfa/trigger-challenge: sends the SMS or e-mail code of the second step. */
export const mfaTriggerBodySchema = requestBody({
  tokenType: tokenTypeSchema,
  mfaToken: mfaTokenSchema,
  clientId: clientIdSchema.optional(),
});
export type MfaTriggerBody = z.output<typeof mfaTriggerBodySchema>;

/** A backup code as typed (any case, spaces or hyphens), handed on normalised (`normalizeBackupCode`). */
export const backupCodeSchema = z
  .string()
  .max(BACKUP_CODE_INPUT_MAX_LENGTH)
  .transform(normalizeBackupCode)
  .pipe(z.string().regex(BACKUP_CODE_PATTERN, 'A backup code is 10 letters and digits'));

/**
 * POST /api/v1/mfa/login: the second step; answers `redirectTo`. Either `otp` (the code of the
 * account's method, `token_type`) or `backup_code` (one of its backup codes), not both.
 */
export const mfaLoginBodySchema = requestBody({
  tokenType: tokenTypeSchema,
  mfaToken: mfaTokenSchema,
  otp: mfaCodeSchema.optional(),
  backupCode: backupCodeSchema.optional(),
  challenge: challengeSchema,
  clientId: clientIdSchema.optional(),
  /** 'Don't ask again on this browser for N days': honoured only when the tenant offers it. */
  rememberBrowser: z.boolean().optional(),
}).superRefine((body, ctx) => {
  if (body.otp === undefined && body.backupCode === undefined) {
    // Worded as a missing field, so the answer is 1001 naming otp, as before backup codes existed.
    ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['otp'], message: 'Invalid input: expected string, received undefined' });
  } else if (body.otp !== undefined && body.backupCode !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['backup_code'], message: 'Send otp or backup_code, not both' });
  }
});
export type MfaLoginBody = z.output<typeof mfaLoginBodySchema>;

/** POST /api/v1/me/mfa/config and POST /api/v1/me/mfa/disable: the password re-check. */
export const mfaPasswordBodySchema = requestBody({ password: passwordSchema });
export type MfaPasswordBody = z.output<typeof mfaPasswordBodySchema>;

export const mfaConfigResponseSchema = z.object({
  enabledMfa: z.boolean(),
  authenticatorType: tokenTypeSchema.nullable(),
});
export type MfaConfigResponse = z.infer<typeof mfaConfigResponseSchema>;

/** POST /api/v1/me/mfa/associate */
export const mfaAssociateBodySchema = requestBody({ password: passwordSchema, authenticatorType: tokenTypeSchema });
export type MfaAssociateBody = z.output<typeof mfaAssociateBodySchema>;

/** totp: the QR code (PNG data URL) of the otpauth:// URI, and the secret to type by hand; sms/email: the code was sent. */
export const mfaAssociateResponseSchema = z.object({
  success: z.literal(true),
  qrcode: z.string().optional(),
  secret: z.string().optional(),
  otpauthUri: z.string().optional(),
  /** sms/email: seconds before another code may be requested. */
  resendAfter: z.number().int().optional(),
});
export type MfaAssociateResponse = z.infer<typeof mfaAssociateResponseSchema>;

/** POST /api/v1/me/mfa/confirm */
export const mfaConfirmBodySchema = requestBody({ password: passwordSchema, authenticatorType: tokenTypeSchema, code: mfaCodeSchema });
export type MfaConfirmBody = z.output<typeof mfaConfirmBodySchema>;

/** POST /api/v1/me/mfa/confirm answers the profile; turning 2-step on also answers the new backup codes, once. */
export const mfaConfirmResponseSchema = profileSchema.extend({
  backupCodes: z.array(z.string()).optional(),
});
export type MfaConfirmResponse = z.infer<typeof mfaConfirmResponseSchema>;

/** GET /api/v1/me/mfa/backup-codes: how many backup codes are still unused (0 with 2-step off). */
export const backupCodesStatusSchema = z.object({
  remaining: z.number().int().nonnegative(),
  /** How many a new set has (10). */
  total: z.number().int().positive(),
});
export type BackupCodesStatus = z.infer<typeof backupCodesStatusSchema>;

/** GET and DELETE /api/v1/me/remembered-browsers: the browsers that skip the second step (after DELETE: 0). */
export const rememberedBrowsersSchema = z.object({
  count: z.number().int().nonnegative(),
});
export type RememberedBrowsers = z.infer<typeof rememberedBrowsersSchema>;

/** POST /api/v1/me/mfa/backup-codes: a new set, shown this once (the earlier codes no longer work). */
export const backupCodesResponseSchema = backupCodesStatusSchema.extend({
  backupCodes: z.array(z.string()),
});
export type BackupCodesResponse = z.infer<typeof backupCodesResponseSchema>;
