import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireAdmin } from './admin-auth.ts';
import { adminErrorHandler } from './admin-errors.ts';
import { adminMeRoutes } from './admin-me.routes.ts';
import { adminTenantRoutes } from './admin-tenants.routes.ts';
import { adminClientRoutes } from './admin-clients.routes.ts';
import { adminUserRoutes } from './admin-users.routes.ts';
import { adminAuditRoutes } from './admin-audit.routes.ts';

/**
 * The admin API (issue 17), registered by app.ts under the prefix `/api/admin/v1`. Every route in
 * this scope runs `requireAdmin` first (an `onRequest` hook: before the body is even parsed), so each
 * route file only checks the tenant (`assertTenantAccess`) or the operator role (`assertOperator`)
 * and reads `adminOf(request)`. One line per route file below.
 */
export async function adminRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  app.addHook('onRequest', requireAdmin(ctx));
  app.setErrorHandler(adminErrorHandler);

  await app.register(adminMeRoutes, { ctx });
  await app.register(adminTenantRoutes, { ctx });
  await app.register(adminClientRoutes, { ctx });
  await app.register(adminUserRoutes, { ctx });
  await app.register(adminAuditRoutes, { ctx });
}
