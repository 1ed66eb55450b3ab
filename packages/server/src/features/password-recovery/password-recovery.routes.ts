import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { codeSentResponseSchema, errorEnvelopeSchema, okResponseSchema, resetPasswordBodySchema, sendCodeBodySchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { createPasswordRecoveryService } from './password-recovery.service.ts';

const errors = { 400: errorEnvelopeSchema, 403: errorEnvelopeSchema, 404: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema };

/** Forgotten passwords (SPEC.md section 7, login flow). */
export async function passwordRecoveryRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const service = createPasswordRecoveryService(ctx);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/api/v1/password/recover', {
    schema: {
      tags: ['visitor flow'],
      summary: 'Send a password recovery code to an active account; the same answer for every username',
      description:
        '1303 password reset disallowed by the tenant; 1301 the client lacks password:reset; 1016/1015 invalid e-mail/phone; ' +
        '1291 (429) a code was asked for this username less than 60 s ago; 503 (1292) the code could not be sent.',
      body: sendCodeBodySchema,
      response: { 200: codeSentResponseSchema, ...errors },
    },
    handler: (request) => service.recover(request.body, visitorMeta(request)),
  });

  api.post('/api/v1/password/reset', {
    schema: {
      tags: ['visitor flow'],
      summary: 'Set a new password with the recovery code',
      description:
        '1042 wrong code; 1026 expired, used, replaced or dead code (5 wrong tries) or no code; 1002 (field password) the tenant password policy; 1104 (field password) a common breached password; ' +
        "1031 (field password) one of the tenant's last password_history_size passwords, the current one included.",
      body: resetPasswordBodySchema,
      response: { 200: okResponseSchema, ...errors },
    },
    handler: (request) => service.reset(request.body, visitorMeta(request)),
  });
}
