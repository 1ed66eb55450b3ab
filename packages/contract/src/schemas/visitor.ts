import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { NAME_MAX_LENGTH } from '../validation.ts';
import { challengeSchema, clientIdSchema, displayNameSchema, passwordSchema, usernameSchema } from './common.ts';

/**
 * The visitor flow (SPEC.md sections 2, 4 and 7): registration, activation, password recovery.
 * Every call names the client (`client_id`) whose capabilities and tenant govern it; a client with
 * reCAPTCHA configured also sends `recaptcha_token`.
 */

const recaptchaToken = z.string().min(1).max(4096).optional();
export const oneTimeCodeSchema = z.string().trim().regex(/^\d{6}$/, 'The code is 6 digits');
const optionalChallenge = challengeSchema.optional();

/** POST /api/v1/users/register */
export const registerBodySchema = requestBody({
  clientId: clientIdSchema,
  username: usernameSchema,
  password: passwordSchema,
  name: displayNameSchema(NAME_MAX_LENGTH),
  recaptchaToken,
  /** The sign-in request the visitor came from, so activation can finish it. */
  challenge: optionalChallenge,
});
export type RegisterBody = z.output<typeof registerBodySchema>;

export const registerResponseSchema = z.object({
  username: z.string(),
  /** Where the activation code went. */
  channel: z.enum(['email', 'sms']),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

/** POST /api/v1/users/confirm: activates the account; with the sign-in challenge, also signs in. */
export const confirmBodySchema = requestBody({
  clientId: clientIdSchema,
  username: usernameSchema,
  code: oneTimeCodeSchema,
  challenge: optionalChallenge,
});
export type ConfirmBody = z.output<typeof confirmBodySchema>;

export const confirmResponseSchema = z.object({ redirectTo: z.string().optional() });
export type ConfirmResponse = z.infer<typeof confirmResponseSchema>;

/** POST /api/v1/users/activation/resend and POST /api/v1/password/recover */
export const sendCodeBodySchema = requestBody({
  clientId: clientIdSchema,
  username: usernameSchema,
  recaptchaToken,
});
export type SendCodeBody = z.output<typeof sendCodeBodySchema>;

/**
 * The same answer whether or not the account exists, so the call does not tell who has an account.
 * `resendAfter`: seconds before another code may be requested.
 */
export const codeSentResponseSchema = z.object({ resendAfter: z.number().int() });
export type CodeSentResponse = z.infer<typeof codeSentResponseSchema>;

/** POST /api/v1/password/reset */
export const resetPasswordBodySchema = requestBody({
  clientId: clientIdSchema,
  username: usernameSchema,
  password: passwordSchema,
  code: oneTimeCodeSchema,
  recaptchaToken,
});
export type ResetPasswordBody = z.output<typeof resetPasswordBodySchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

/** GET /api/v1/tenants/{tenantId}/password-policy */
export const tenantParamsSchema = z.object({ tenantId: z.string().min(1).max(64) });
