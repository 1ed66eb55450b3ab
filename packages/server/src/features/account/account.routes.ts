import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, accountDeletionBodySchema, codeSentResponseSchema, errorEnvelopeSchema, profileSchema, profileUpdateBodySchema, securityEventsSchema, securityEventTypes, tenantSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { toPublicTenant } from '../tenants/tenants.queries.ts';
import { visitorMeta } from '../login-flow/visitor-input.ts';
import { toProfile } from './profile.ts';
import { createProfileService } from './profile.service.ts';
import { createAccountDeletionService } from './account-deletion.service.ts';
import { signedIn } from './signed-in.ts';
import { avatarRoutes } from './avatar.routes.ts';
import { contactRoutes } from './contact.routes.ts';
import { mfaSettingsRoutes } from './mfa-settings.routes.ts';
import { passwordChangeRoutes } from './password-change.routes.ts';
import { rememberedBrowserRoutes } from '../mfa/remembered-browsers.routes.ts';

const errors = { 401: errorEnvelopeSchema, 404: errorEnvelopeSchema };
const bearer = [{ bearerAuth: [] }];

/** The signed-in user's own account (SPEC.md section 7, signed-in calls). Every call needs the `account` client's bearer token (1101, 1102). */
export async function accountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = signedIn(ctx);
  const profiles = createProfileService(ctx);
  const deletion = createAccountDeletionService(ctx);

  api.get('/api/v1/me/security-events', {
    schema: {
      tags: ['account'],
      summary: 'Recent security events of the signed-in user (the last 30 days, newest first, at most 20)',
      security: bearer,
      response: { 200: securityEventsSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const since = Date.now() - 30 * 86_400_000;
      const rows = await ctx.audit.listForUser(auth.user(request).id, 100);
      const shown = new Set<string>(securityEventTypes);
      return {
        items: rows
          .filter((row) => row.created_at >= since && shown.has(row.type))
          .slice(0, 20)
          .map((row) => ({
            type: row.type as (typeof securityEventTypes)[number],
            createdAt: new Date(row.created_at).toISOString(),
            ip: row.ip,
            userAgent: row.user_agent,
          })),
      };
    },
  });

  api.get('/api/v1/me', {
    schema: { tags: ['account'], summary: "The signed-in user's profile", security: bearer, response: { 200: profileSchema, ...errors } },
    onRequest: auth.authenticate,
    handler: async (request) => toProfile(auth.user(request), ctx.config.publicUrl),
  });

  api.get('/api/v1/me/tenant', {
    schema: { tags: ['account'], summary: "The signed-in user's tenant", security: bearer, response: { 200: tenantSchema, ...errors } },
    onRequest: auth.authenticate,
    handler: async (request) => {
      const tenant = await ctx.tenants.findById(auth.user(request).tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
      return toPublicTenant(tenant);
    },
  });

  api.patch('/api/v1/me', {
    schema: {
      tags: ['account'],
      summary: "Change the signed-in user's name, birthday or gender",
      description:
        'Only the fields sent change; `birthday` (unix seconds) and `gender` may be null to clear them. Answers the updated profile. ' +
        '1002 (400, naming the field) for a blank or over-long name, a birthday that is not an integer, before 1900-01-01 or in the future, an unknown gender.',
      security: bearer,
      body: profileUpdateBodySchema,
      response: { 200: profileSchema, 400: errorEnvelopeSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request) => profiles.update(auth.user(request), request.body),
  });

  api.post('/api/v1/me/deletion/code', {
    schema: {
      tags: ['account'],
      summary: 'Send the code that confirms deleting an account without a password',
      description:
        "For accounts that sign in without a password (by phone code or a social provider): a code to the account's verified e-mail address, else its verified phone number. " +
        '1002 (400, field password) the account has a password (delete it with the password); 1027 (400) no verified e-mail address or phone number; ' +
        '1291 (429) a code was sent less than 60 s ago; 1290 (429) the hourly budget of codes of the account or the IP is spent; 1292 (503) the code could not be sent.',
      security: bearer,
      response: { 200: codeSentResponseSchema, 400: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: (request) => deletion.sendCode(auth.user(request), visitorMeta(request)),
  });

  api.delete('/api/v1/me', {
    schema: {
      tags: ['account'],
      summary: "Delete the signed-in user's account for good",
      description:
        'The body proves the request comes from the owner: `confirmation` is the account\'s e-mail address (any case), else its phone number, ' +
        '(else the word DELETE), as the user typed it; `password` for an account that has one (profile `hasPassword`), else `code`, sent by POST /api/v1/me/deletion/code. ' +
        'Deletes the account, its avatar, codes, password history, and every provider session, grant, access and refresh token of it: ' +
        'the user is signed out everywhere, and signing in again fails as for an unknown account (1017). Answers 204 with no body. ' +
        '1001 (400, naming the field) confirmation, password or code missing; 1002 (400, field confirmation) the confirmation does not match; ' +
        '1017 (400, field password) wrong password (re-checks share one budget per account: 1290, 429, once spent); ' +
        '1040 (400, field code) wrong code; 1026 (400, field code) expired, used or dead code or none; 1027 (400) no verified address to prove the account by code.',
      security: bearer,
      body: accountDeletionBodySchema,
      response: { 204: z.null().describe('Deleted'), 400: errorEnvelopeSchema, 429: errorEnvelopeSchema, ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request, reply) => {
      await deletion.deleteAccount(auth.user(request), request.body, visitorMeta(request));
      return reply.status(204).send(null);
    },
  });

  avatarRoutes(app, ctx, auth);
  contactRoutes(app, ctx, auth);
  mfaSettingsRoutes(app, ctx, auth);
  passwordChangeRoutes(app, ctx, auth);
  rememberedBrowserRoutes(app, ctx, auth);
}
