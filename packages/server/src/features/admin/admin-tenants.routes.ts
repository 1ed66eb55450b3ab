import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  adminTenantCreateBodySchema,
  adminTenantListQuerySchema,
  adminTenantListSchema,
  adminTenantParamsSchema,
  adminTenantSchema,
  adminTenantUpdateBodySchema,
  errorEnvelopeSchema,
  type AdminTenant,
  type AdminTenantList,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { createTenantService } from '../tenants/tenants.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { ADMIN_CONSOLE_CLIENT_ID, adminActor, adminOf, assertOperator, assertTenantAccess } from './admin-auth.ts';
import { adminErrorResponses, adminSecurity } from './admin-errors.ts';
import { createAdminCatalogQueries } from './admin-catalog.queries.ts';

const iso = (millis: number) => new Date(millis).toISOString();

export function toAdminTenant(record: TenantRecord): AdminTenant {
  return { ...record, createdAt: iso(record.createdAt), updatedAt: iso(record.updatedAt) };
}

const RULES =
  'Rules: name 1-200 characters; brand_name, terms_uri and privacy_uri may be null; URIs are http(s); password_policy {minLength, uppercase, number, special} ' +
  '(null: the default 6/0/0/0); password_max_age_days 1-3650 or null (never expires); password_warning_days 1-365 or null, less than the maximum age; ' +
  'password_history_size 0-24; custom_register_checkbox {name, nameI18n?, termUrl?, policyUrl?} or null. ' +
  'A bad value answers 400 (1002) naming the field (snake_case at the top level, nested keys as sent).';

/**
 * Tenants in the admin API: operators list, create and edit every tenant; a tenant admin lists,
 * reads and edits their own. Through the command line's service (the same validation and audit),
 * with the admin as the audit record's actor.
 */
export async function adminTenantRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createTenantService(ctx);

  async function mustFind(tenantId: string): Promise<TenantRecord> {
    const tenant = await ctx.tenants.findById(tenantId);
    if (!tenant) throw new ApiError(ErrorCode.NotFound, 404, 'tenantId', 'Tenant not found');
    return tenant;
  }

  r.get('/tenants', {
    schema: {
      tags: ['admin'],
      summary: 'Tenants: every one for an operator, their own for a tenant admin; paginated, q searches id and name',
      security: adminSecurity,
      querystring: adminTenantListQuerySchema,
      response: { 200: adminTenantListSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminTenantList> => {
      const admin = adminOf(request);
      const { items, total } = await createAdminCatalogQueries(ctx.db).listTenants(request.query, admin.operator ? undefined : admin.tenantAdminOf);
      return { items: items.map(toAdminTenant), page: request.query.page, pageSize: request.query.page_size, total };
    },
  });

  r.post('/tenants', {
    schema: {
      tags: ['admin'],
      summary: 'Creates a tenant (operators only)',
      description: `id: lowercase letters, digits, - and _ (at most 63). Settings left out: every switch on, the default password policy, no expiry, no history. 409 when the id is taken. ${RULES}`,
      security: adminSecurity,
      body: adminTenantCreateBodySchema,
      response: { 201: adminTenantSchema, ...adminErrorResponses, 409: errorEnvelopeSchema },
    },
    handler: async (request, reply): Promise<AdminTenant> => {
      assertOperator(adminOf(request));
      if (await ctx.tenants.findById(request.body.id)) throw new ApiError(ErrorCode.InvalidField, 409, 'id', `tenant '${request.body.id}' already exists`);
      const tenant = await service.create(request.body, adminActor(request));
      reply.status(201);
      return toAdminTenant(tenant);
    },
  });

  r.get('/tenants/:tenantId', {
    schema: {
      tags: ['admin'],
      summary: 'A tenant, with every setting',
      security: adminSecurity,
      params: adminTenantParamsSchema,
      response: { 200: adminTenantSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminTenant> => {
      assertTenantAccess(adminOf(request), request.params.tenantId);
      return toAdminTenant(await mustFind(request.params.tenantId));
    },
  });

  r.patch('/tenants/:tenantId', {
    schema: {
      tags: ['admin'],
      summary: "Changes a tenant's settings: the fields given, and only those",
      description: RULES,
      security: adminSecurity,
      params: adminTenantParamsSchema,
      body: adminTenantUpdateBodySchema,
      response: { 200: adminTenantSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminTenant> => {
      const admin = adminOf(request);
      assertTenantAccess(admin, request.params.tenantId);
      // The console's own tenant decides how every admin signs in (password sign-in, devices,
      // recovery): a tenant admin of it could otherwise shut the operators out. Operators only.
      if (request.params.tenantId === (await ctx.clients.findById(ADMIN_CONSOLE_CLIENT_ID))?.tenantId) assertOperator(admin);
      await mustFind(request.params.tenantId);
      const { tenant } = await service.update(request.params.tenantId, request.body, adminActor(request));
      return toAdminTenant(tenant);
    },
  });
}
