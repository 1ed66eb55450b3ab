import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeSentResponseSchema,
  confirmBodySchema,
  confirmResponseSchema,
  errorEnvelopeSchema,
  registerBodySchema,
  registerResponseSchema,
  sendCodeBodySchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { createCodeService } from '../codes/codes.service.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createRegistrationService } from './registration.service.ts';
import { createActivationService } from './activation.service.ts';
import { registrantBrowser } from './registrant-browser.ts';
import { browserKeySetCookie } from '../known-browsers/new-browser-notice.ts';

const errors = {
  400: errorEnvelopeSchema,
  403: errorEnvelopeSchema,
  404: errorEnvelopeSchema,
  409: errorEnvelopeSchema,
  429: errorEnvelopeSchema,
  503: errorEnvelopeSchema,
};

/** Registration and activation (SPEC.md section 7, login flow). */
export async function registrationRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const codes = createCodeService(ctx);
  const registration = createRegistrationService(ctx, codes);
  const activation = createActivationService(ctx, codes);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/v1/users/register', {
    schema: {
      tags: ['visitor flow'],
      summary: 'Register an account (pending until activated) and send the activation code by e-mail or SMS',
      description:
        '1303 registration disallowed by the tenant; 1301 the client may not register this kind of username; 1016/1015 invalid e-mail/phone; ' +
        '1002 (field password) the tenant password policy; 1104 (400, field password) a common breached password; 1020/1019 (409) already registered; 1291 (429) a code was sent less than 60 s ago; ' +
        '1026 (400, field challenge) a challenge this browser did not start; 503 (1292) the code could not be sent (nothing is saved).',
      body: registerBodySchema,
      response: { 200: registerResponseSchema, ...errors },
    },
    handler: async (request, reply) => {
      const meta = visitorMeta(request);
      const registrant = registrantBrowser(ctx, meta);
      const answer = await registration.register(request.body, meta, registrant);
      if (registrant) reply.header('set-cookie', browserKeySetCookie(ctx, registrant.key));
      return answer;
    },
  });

  api.post('/api/v1/users/confirm', {
    schema: {
      tags: ['visitor flow'],
      summary: 'Activate a registered account with its code; with the sign-in challenge, also finish that sign-in (redirectTo)',
      description:
        '1041 wrong code; 1026 expired, used, replaced or dead code (5 wrong tries) or no code; 1013 already activated. ' +
        'Typed in another browser than the one that registered, the code activates the address only: the password and profile set at registration are dropped (set a password through recovery).',
      body: confirmBodySchema,
      response: { 200: confirmResponseSchema, ...errors },
    },
    handler: (request) => activation.confirm(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/users/activation/resend', {
    schema: {
      tags: ['visitor flow'],
      summary: 'Send a new activation code to a pending account; the same answer for every username',
      description: '1291 (429) a code was asked for this username less than 60 s ago; 503 (1292) the code could not be sent.',
      body: sendCodeBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    handler: (request) => activation.resend(request.body, visitorMeta(request)),
  });
}
