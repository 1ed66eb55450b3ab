import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeSentResponseSchema,
  errorEnvelopeSchema,
  passwordlessLoginBodySchema,
  passwordlessLoginResponseSchema,
  passwordlessResendBodySchema,
  passwordlessSendBodySchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createPasswordlessService } from './passwordless.service.ts';

const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };
const guards =
  '1303 the tenant disallows passwordless sign-in; 1301 the client lacks passwordless:login; 1015 (field phone_number) invalid phone; ' +
  '1026 (field challenge) expired or unknown sign-in request; 1010 (404) no account with the phone and the client lacks passwordless:register; 1012 disabled account';

/** Passwordless sign-in by phone and SMS code (SPEC.md sections 6 and 7). */
export async function passwordlessRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = createPasswordlessService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/v1/passwordless/send', {
    schema: {
      tags: ['passwordless'],
      summary: 'Send a sign-in code by SMS to the phone',
      description: `${guards}; 1291 (429) a code was sent less than 60 s ago; 503 (1292) the SMS could not be sent.`,
      body: passwordlessSendBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    handler: (request) => service.send(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/passwordless/resend', {
    schema: {
      tags: ['passwordless'],
      summary: 'Send a new sign-in code (the client from client_id, else from the challenge)',
      description: `${guards}; 1291 (429) a code was sent less than 60 s ago; 503 (1292) the SMS could not be sent.`,
      body: passwordlessResendBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    handler: (request) => service.resend(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/passwordless/login', {
    schema: {
      tags: ['passwordless'],
      summary: 'Sign in with the SMS code; with passwordless:register an unknown phone gets an account',
      description: `${guards}; 1043 (field code) wrong code; 1026 (field code) expired, used, replaced or dead code (5 wrong tries) or no code.`,
      body: passwordlessLoginBodySchema,
      response: { 200: passwordlessLoginResponseSchema, ...errors },
    },
    handler: (request) => service.login(request.body, visitorMeta(request)),
  });
}
