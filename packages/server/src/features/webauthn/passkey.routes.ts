import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, passkeyLoginBodySchema, passkeyLoginResponseSchema, passkeyOptionsBodySchema, passkeyOptionsResponseSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createPasskeyLoginService } from './passkey-login.service.ts';

const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };
const tags = ['webauthn'];
const SIGN_IN =
  '`challenge` is the sign-in challenge, held by this browser (the provider\'s interaction cookie), else 1026 (field challenge); `client_id`, when given, must be its client ' +
  '(1002, field client_id). 1303 (403) the tenant does not allow devices; 1301 (403) the client lacks webauthn:login.';

/** Passkeys with autofill (issue 16): the Login screen's background passkey request and its sign-in. */
export async function passkeyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const passkeys = createPasskeyLoginService(ctx);

  api.post('/api/v2/passkey-login/options', {
    schema: {
      tags,
      summary: 'Passkey autofill: request options for the browser\'s conditional get()',
      description:
        'PublicKeyCredentialRequestOptionsJSON with no allowCredentials (any passkey of this site) and userVerification `required`; its challenge is random, ' +
        `bound to this sign-in and client, stored only as a keyed hash, single use, valid \`expiresIn\` seconds (300); a new one replaces the sign-in's earlier one. ${SIGN_IN}`,
      body: passkeyOptionsBodySchema,
      response: { 200: passkeyOptionsResponseSchema, ...errors },
    },
    handler: (request) => passkeys.options(request.body, visitorMeta(request)),
  });

  api.post('/api/v2/passkey-login', {
    schema: {
      tags,
      summary: 'Sign in with the passkey picked from the username field (counts as both factors)',
      description:
        '`publickey_credential` is the AuthenticationResponseJSON of the conditional request. Verifies it for real (origin, RP id, the challenge of the options, signature, ' +
        'user verification, a counter that only moves forward) against the credential of that id in the client\'s tenant, then finishes the sign-in without a second step ' +
        `(amr hwk, user, mfa) and answers \`redirectTo\`. ${SIGN_IN} 1026 (field publickey_credential) the options expired, were used or replaced, or are another ` +
        'sign-in\'s; 1029 (field publickey_credential) no such passkey in this tenant; 1027 the device was never activated; 1102 (field publickey_credential, "Verify device failed") ' +
        'the assertion is refused (signature, origin, user not verified, replayed counter, a user handle that is not the credential\'s); 1302/1011/1012 (403) locked, ' +
        'unactivated or disabled account; 1290 (429) too many attempts. Successes and failures are audited (webauthn.login, webauthn.login_failed, method passkey).',
      body: passkeyLoginBodySchema,
      response: { 200: passkeyLoginResponseSchema, ...errors },
    },
    handler: (request) => passkeys.login(request.body, visitorMeta(request)),
  });
}
