import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCode, errorEnvelopeSchema, passwordPolicySchema, tenantParamsSchema } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';

/** Public facts about a tenant that the visitor screens need. */
export async function tenantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/api/v1/tenants/:tenantId/password-policy', {
    schema: {
      tags: ['visitor flow'],
      summary: "The tenant's password policy (minimum length and minimum uppercase, digit and special character counts); the default {6, 0, 0, 0} when it sets none",
      description: 'An unknown tenant answers 404 with code 1404.',
      params: tenantParamsSchema,
      response: { 200: passwordPolicySchema, 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
    },
    handler: async (request) => {
      const tenant = await ctx.tenants.findById(request.params.tenantId);
      if (!tenant) throw new ApiError(ErrorCode.NotFound, 404, undefined, 'Tenant not found');
      return tenant.passwordPolicy;
    },
  });
}
