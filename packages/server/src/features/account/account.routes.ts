import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, errorEnvelopeSchema, profileSchema, profileUpdateBodySchema, securityEventsSchema, securityEventTypes, tenantSchema } from '@passgate/contract';
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

  api.delete('/api/v1/me', {
    schema: {
      tags: ['account'],
      summary: "Delete the signed-in user's account for good",
      description:
        'Deletes the account, its avatar, codes, password history, and every provider session, grant, access and refresh token of it: ' +
        'the user is signed out everywhere, and signing in again fails as for an unknown account (1017). Answers 204 with no body.',
      security: bearer,
      response: { 204: z.null().describe('Deleted'), ...errors },
    },
    onRequest: auth.authenticate,
    handler: async (request, reply) => {
      await deletion.deleteAccount(auth.user(request), visitorMeta(request));
      return reply.status(204).send(null);
    },
  });

  avatarRoutes(app, ctx, auth);
  contactRoutes(app, ctx, auth);
  mfaSettingsRoutes(app, ctx, auth);
}
