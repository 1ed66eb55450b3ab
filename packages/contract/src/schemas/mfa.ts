import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema, passwordSchema } from './common.ts';
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

/** POST /api/v1/mfa/login: the second step; answers `redirectTo`. */
export const mfaLoginBodySchema = requestBody({
  tokenType: tokenTypeSchema,
  mfaToken: mfaTokenSchema,
  otp: mfaCodeSchema,
  challenge: challengeSchema,
  clientId: clientIdSchema.optional(),
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
