import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema } from './common.ts';
import { oneTimeCodeSchema } from './visitor.ts';
import { redirectOrMfaStepSchema } from './login-flow.ts';

/**
 * Passwordless sign-in by phone (SPEC.md sections 2, 6 and 7): a code by SMS, then the code signs
 * in. Needs the tenant's passwordlessAuthenticationAllowed and the client's passwordless:login; with
 * passwordless:register an unknown phone gets an account at its first sign-in. `client_id` may be
 * left out when the challenge names the client.
 */

const recaptchaToken = z.string().min(1).max(4096).optional();
const phoneNumber = z.string().trim().min(1).max(32);

/** POST /api/v1/passwordless/send */
export const passwordlessSendBodySchema = requestBody({
  challenge: challengeSchema,
  phoneNumber,
  clientId: clientIdSchema.optional(),
  recaptchaToken,
});
export type PasswordlessSendBody = z.output<typeof passwordlessSendBodySchema>;

/** POST /api/v1/passwordless/resend */
export const passwordlessResendBodySchema = requestBody({
  challenge: challengeSchema.optional(),
  phoneNumber,
  clientId: clientIdSchema.optional(),
  recaptchaToken,
});
export type PasswordlessResendBody = z.output<typeof passwordlessResendBodySchema>;

/** POST /api/v1/passwordless/login */
export const passwordlessLoginBodySchema = requestBody({
  challenge: challengeSchema,
  phoneNumber,
  code: oneTimeCodeSchema,
  clientId: clientIdSchema.optional(),
  recaptchaToken,
});
export type PasswordlessLoginBody = z.output<typeof passwordlessLoginBodySchema>;

export const passwordlessLoginResponseSchema = redirectOrMfaStepSchema;
export type PasswordlessLoginResponse = z.infer<typeof passwordlessLoginResponseSchema>;
