import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema, passwordSchema, redirectSchema, usernameSchema } from './common.ts';
import { publicClientSchema } from './client.ts';

export const challengeParamsSchema = z.object({ challenge: challengeSchema });

/** GET /api/v1/clients/{clientId}: a client's public face, for a screen whose request is gone. */
export const clientParamsSchema = z.object({ clientId: clientIdSchema });

/**
 * GET /api/v1/requests/login/{challenge}: the verify-device page of a second device, which does not
 * hold the sign-in request, reads it with the device sign-in request (the QR link's authnChallenge).
 */
export const loginRequestQuerySchema = z.object({ authn_challenge: challengeSchema.optional() });

export const oidcContextSchema = z.object({
  loginHint: z.string().optional(),
  uiLocales: z.string().optional(),
});

/** GET /api/v1/requests/login/{challenge} */
export const loginRequestInfoSchema = z.object({
  challenge: z.string(),
  skip: z.boolean(),
  redirectTo: z.string().optional(),
  client: publicClientSchema,
  oidcContext: oidcContextSchema,
});
export type LoginRequestInfo = z.infer<typeof loginRequestInfoSchema>;

/** GET /api/v1/requests/logout/{challenge} */
export const logoutRequestInfoSchema = z.object({
  challenge: z.string(),
  autoConfirm: z.boolean(),
  client: publicClientSchema.nullable(),
});
export type LogoutRequestInfo = z.infer<typeof logoutRequestInfoSchema>;

/** POST /api/v1/requests/logout/{challenge} */
export const logoutDecisionBodySchema = requestBody({ confirmed: z.boolean() });

export const tokenTypeSchema = z.enum(['totp', 'sms', 'email']);

/**
 * The first factor passed and the account has 2-step verification on: go to the 2-step screen with
 * these (password, passwordless, Google and Facebook sign-in alike; a device counts as both).
 */
export const mfaStepSchema = z.object({
  mfaRequired: z.literal(true),
  tokenType: tokenTypeSchema,
  mfaToken: z.string(),
  /** false when this account's second step is never remembered (an administrator's): the screen does not offer the box. */
  rememberBrowser: z.literal(false).optional(),
});
export type MfaStep = z.infer<typeof mfaStepSchema>;

/** Signed in (`redirectTo`), or the 2-step screen comes next. */
export const redirectOrMfaStepSchema = z.union([redirectSchema, mfaStepSchema]);
export type RedirectOrMfaStep = z.infer<typeof redirectOrMfaStepSchema>;
export type TokenType = z.infer<typeof tokenTypeSchema>;

/** POST /api/v1/users/login */
export const passwordLoginBodySchema = requestBody({
  challenge: challengeSchema,
  username: usernameSchema,
  password: passwordSchema,
  clientId: clientIdSchema.optional(),
  recaptchaToken: z.string().max(4096).optional(),
});
export type PasswordLoginBody = z.output<typeof passwordLoginBodySchema>;

export const passwordWarningSchema = z.object({
  /** Unix time (seconds) at which the password expires. */
  expiresAt: z.number().int(),
  daysLeft: z.number().int(),
});

export const loginResponseSchema = z.object({
  redirectTo: z.string().optional(),
  mfaRequired: z.boolean().optional(),
  tokenType: tokenTypeSchema.optional(),
  mfaToken: z.string().optional(),
  rememberBrowser: z.literal(false).optional(),
  passwordWarning: passwordWarningSchema.optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;
