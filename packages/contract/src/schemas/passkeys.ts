import { z } from 'zod';
import { requestBody } from '../wire.ts';
import { challengeSchema, clientIdSchema } from './common.ts';
import { authenticationResponseJsonSchema, requestOptionsJsonSchema } from './webauthn.ts';

/**
 * Passkeys with autofill (issue 16): the Login screen asks the browser for a passkey in the
 * background (WebAuthn conditional mediation) and signs in with the one the person picks from the
 * username field. `challenge` is the sign-in challenge (interaction uid), as in POST /api/v1/users/login.
 */

/** POST /api/v2/passkey-login/options */
export const passkeyOptionsBodySchema = requestBody({
  challenge: challengeSchema,
  clientId: clientIdSchema.optional(),
});
export type PasskeyOptionsBody = z.output<typeof passkeyOptionsBodySchema>;

/** Request options with no allowCredentials (any passkey of this site) and user verification required. */
export const passkeyOptionsResponseSchema = z.object({
  /** Seconds the options may be used: the page asks for new ones before then. */
  expiresIn: z.number().int(),
  publickeyCredentialRequestOptions: requestOptionsJsonSchema,
});
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponseSchema>;

/** POST /api/v2/passkey-login */
export const passkeyLoginBodySchema = requestBody({
  challenge: challengeSchema,
  clientId: clientIdSchema.optional(),
  /** AuthenticationResponseJSON of startAuthentication(); its clientDataJSON carries the options' challenge. */
  publickeyCredential: authenticationResponseJsonSchema,
});
export type PasskeyLoginBody = z.output<typeof passkeyLoginBodySchema>;

export const passkeyLoginResponseSchema = z.object({ redirectTo: z.string() });
export type PasskeyLoginResponse = z.infer<typeof passkeyLoginResponseSchema>;
