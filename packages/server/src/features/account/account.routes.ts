import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCode, errorEnvelopeSchema, profileSchema, tenantSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { authenticateAccount } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';
import { toPublicTenant } from '../tenants/tenants.queries.ts';
import { toProfile } from './profile.ts';

const errors = { 401: errorEnvelopeSchema, 404: errorEnvelopeSchema };
const bearer = [{ bearerAuth: [] }];

/** The signed-in user's own account (SPEC.md section 7, signed-in calls). */
export async function accountRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get('/api/v1/me', {
    schema: { tags: ['account'], summary: "The signed-in user's profile", security: bearer, response: { 200: profileSchema, ...errors } },
    handler: async (request) => toProfile(await authenticateAccount(ctx, request), ctx.config.publicUrl),
  });

  api.get('/api/v1/me/tenant', {
    schema: { tags: ['account'], summary: "The signed-in user's tenant", security: bearer, response: { 200: tenantSchema, ...errors } },
    handler: async (request) => {
      const user = await authenticateAccount(ctx, request);
      const tenant = await ctx.tenants.findById(user.tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
      return toPublicTenant(tenant);
    },
  });
}
