import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, rememberedBrowsersSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import type { SignedIn } from '../account/signed-in.ts';
import { createRememberedBrowsers } from './remembered-browsers.ts';

const bearer = [{ bearerAuth: [] }];
const errors = { 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 503: errorEnvelopeSchema };

/** The Security page's 'Remembered browsers' row: how many skip the second step, and 'Forget all browsers'. */
export function rememberedBrowserRoutes(app: FastifyInstance, ctx: AppContext, auth: SignedIn): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const remembered = createRememberedBrowsers(ctx);

  api.get('/api/v1/me/remembered-browsers', {
    schema: {
      tags: ['account'],
      summary: 'How many browsers skip the 2-step verification of the signed-in user',
      description:
        'Not shown by the specification (its path is ours). `count`: browsers remembered with \'Don\'t ask again on this browser\' that have not expired. ' +
        'The cookies themselves are never answered.',
      security: bearer,
      response: { 200: rememberedBrowsersSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => ({ count: await remembered.count(auth.user(request).id) }),
  });

  api.delete('/api/v1/me/remembered-browsers', {
    schema: {
      tags: ['account'],
      summary: 'Forget all browsers: every browser asks for the 2-step code again at its next sign-in',
      description:
        'Not shown by the specification (its path is ours). Deletes every remembered browser of the signed-in user (audited as mfa.remembered_browsers_forgotten) and answers `count` 0. ' +
        'Bearer token of the `account` client only, so no cookie authenticates it. A password change and turning 2-step off or on forget them too.',
      security: bearer,
      response: { 200: rememberedBrowsersSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      await remembered.forgetAll(auth.user(request), { clientId: ACCOUNT_CLIENT_ID, ip: request.ip, userAgent: request.headers['user-agent'] });
      return { count: 0 };
    },
  });
}
