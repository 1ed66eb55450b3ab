import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, passwordChangeBodySchema, passwordChangeResponseSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { acceptedToken } from '../../plugins/account-auth.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createPasswordChangeService, type CallingToken } from './password-change.service.ts';
import type { SignedIn } from './signed-in.ts';

const bearer = [{ bearerAuth: [] }];
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 429: errorEnvelopeSchema };

/** The session and grant of the access token the call came with (already checked by `auth.authenticate`). */
function callingToken(request: FastifyRequest): CallingToken {
  return acceptedToken(request);
}

/** Changing one's password from the account area's Security page. */
export function passwordChangeRoutes(app: FastifyInstance, ctx: AppContext, auth: SignedIn): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = createPasswordChangeService(ctx);

  api.post('/api/v1/me/password', {
    schema: {
      tags: ['account'],
      summary: 'Change the signed-in user’s password',
      description:
        'Checks the current password (1017, field current_password; each try spends the re-check budget shared with the 2-step settings and account deletion: 1290 once spent), ' +
        'then the new one: the tenant’s password policy (1002, field new_password, naming what it lacks), the list of common breached passwords (1104) and the tenant’s password history (1031). ' +
        'An account without a password (Google, Facebook, phone code) gets 1105. On success every other session of the user is signed out and the tokens issued outside this session are revoked ' +
        '(this session and its token stay), and a notice goes to the verified e-mail address, else the verified phone number. Answers how many other sessions were signed out.',
      security: bearer,
      body: passwordChangeBodySchema,
      response: { 200: passwordChangeResponseSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => service.change(auth.user(request), request.body, callingToken(request), visitorMeta(request)),
  });
}
