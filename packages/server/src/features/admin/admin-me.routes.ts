import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminMeSchema, type AdminMe } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { adminOf } from './admin-auth.ts';
import { adminErrorResponses, adminSecurity } from './admin-errors.ts';

/** GET /api/admin/v1/me: who the console's admin is and what they administer. */
export async function adminMeRoutes(app: FastifyInstance, _options: { ctx: AppContext }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get('/me', {
    schema: {
      tags: ['admin'],
      summary: 'The signed-in admin: operator (every tenant) or the tenants they administer',
      description: '401 (1101/1102) without an admin-console access token; 403 1301 without an admin role, 1304 without 2-step verification (an authenticator app or a device), 1307 when the sign-in behind the token did not use it (sign in again with prompt=login).',
      security: adminSecurity,
      response: { 200: adminMeSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminMe> => {
      const admin = adminOf(request);
      return { userId: admin.userId, email: admin.user.email, name: admin.user.name, operator: admin.operator, tenantAdminOf: admin.tenantAdminOf };
    },
  });
}
