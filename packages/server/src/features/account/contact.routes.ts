import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeSentResponseSchema,
  emailUpdateBodySchema,
  emailVerifyBodySchema,
  errorEnvelopeSchema,
  phoneUpdateBodySchema,
  phoneVerifyBodySchema,
  profileSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createContactChangeService } from './contact-change.service.ts';
import { requireRecentProof } from './recent-proof.ts';
import type { SignedIn } from './signed-in.ts';

const bearer = [{ bearerAuth: [] }];
const errors = { 400: errorEnvelopeSchema, 401: errorEnvelopeSchema, 403: errorEnvelopeSchema, 409: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };

/** E-mail and phone changes, each in two steps: a code to the new value, then the value with that code. */
export function contactRoutes(app: FastifyInstance, ctx: AppContext, auth: SignedIn): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const service = createContactChangeService(ctx);

  api.post('/api/v1/me/email/verify', {
    schema: {
      tags: ['account'],
      summary: 'Send a verification code to a new e-mail address',
      description:
'Past 10 minutes after the sign-in behind the token, the account\'s password must come with the call (field password): 1001 (400, field password) without it, 1017 (400, field password) wrong; an account without a password signs in again instead (1100, 403). ' +
        '1016 (400) invalid format; 1002 (400) the current address; 1020 (409) the address belongs to another account of the tenant; ' +
        "1021 (409) the account's e-mail comes from its social sign-in (Google, Facebook, Apple) and cannot be replaced; " +
        '1291 (429) a code was sent to this address less than 60 s ago; 1290 (429) the hourly budget of codes of the account or the IP is spent; ' +
        '1292 (503) the code could not be sent.',
      security: bearer,
      body: emailVerifyBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const user = auth.user(request);
      await requireRecentProof(ctx, request, user, request.body.password, visitorMeta(request));
      return service.sendCode('email', user, request.body.email, visitorMeta(request));
    },
  });

  api.post('/api/v1/me/email/update', {
    schema: {
      tags: ['account'],
      summary: 'Set the new e-mail address with its code',
      description:
        'Sets the address (verified) and answers the updated profile; the old address gets a notice of the change. ' +
        '1040 (400, field code) wrong code; 1026 (400) expired, used, replaced or dead code (5 wrong tries) or none; ' +
        'then as the verify call: 1016, 1002, 1020 (409), 1021 (409).',
      security: bearer,
      body: emailUpdateBodySchema,
      response: { 200: profileSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => service.update('email', auth.user(request), request.body.email, request.body.code, visitorMeta(request)),
  });

  api.post('/api/v1/me/phoneNumber/verify', {
    schema: {
      tags: ['account'],
      summary: 'Send a verification code by SMS to a new phone number',
      description:
'Past 10 minutes after the sign-in behind the token, the account\'s password must come with the call (field password): 1001 (400, field password) without it, 1017 (400, field password) wrong; an account without a password signs in again instead (1100, 403). ' +
        '1015 (400) not 10 digits; 1002 (400) the current number; 1019 (409) the number belongs to another account of the tenant; ' +
        '1291 (429) a code was sent to this number less than 60 s ago; 1290 (429) the hourly budget of codes of the account or the IP is spent; ' +
        '1292 (503) the code could not be sent.',
      security: bearer,
      body: phoneVerifyBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const user = auth.user(request);
      await requireRecentProof(ctx, request, user, request.body.password, visitorMeta(request));
      return service.sendCode('phone', user, request.body.phoneNumber, visitorMeta(request));
    },
  });

  api.post('/api/v1/me/phoneNumber/update', {
    schema: {
      tags: ['account'],
      summary: 'Set the new phone number with its code',
      description:
        'Sets the number (verified) and answers the updated profile; the old number gets an SMS notice of the change. ' +
        '1040 (400, field code) wrong code; 1026 (400) expired, used, replaced or dead code or none; then as the verify call: 1015, 1002, 1019 (409).',
      security: bearer,
      body: phoneUpdateBodySchema,
      response: { 200: profileSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => service.update('phone', auth.user(request), request.body.phoneNumber, request.body.code, visitorMeta(request)),
  });
}
