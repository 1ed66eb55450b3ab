import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ErrorCode,
  adminClientAnswerSchema,
  adminClientCreateBodySchema,
  adminClientListQuerySchema,
  adminClientListSchema,
  adminClientParamsSchema,
  adminClientSchema,
  adminClientUpdateBodySchema,
  adminTenantParamsSchema,
  errorEnvelopeSchema,
  type AdminClient,
  type AdminClientAnswer,
  type AdminClientList,
} from '@passgate/contract';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { adminActor, adminOf, assertTenantAccess } from './admin-auth.ts';
import { adminErrorResponses, adminSecurity } from './admin-errors.ts';
import { createAdminClientService, toAdminClient } from './admin-clients.service.ts';

const RULES =
  'Validated as the provider will load the client: redirect_uris (1-20) and post_logout_redirect_uris (0-20) http(s) URLs without fragments; ' +
  'grant_types authorization_code and/or refresh_token; token_endpoint_auth_method none (public, PKCE) or client_secret_basic/client_secret_post; ' +
  'theme colours #RRGGBB; permissions from the capability list (none: every capability); facebook_app_secret and recaptcha.secret are write-only ' +
  '(null removes the Facebook one). A bad value answers 400 (1002) naming the field.';

/** A tenant's clients in the admin API: operators and that tenant's admins. */
export async function adminClientRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const clients = createAdminClientService(ctx);

  async function tenantOf(request: { params: { tenantId: string } } & Parameters<typeof adminOf>[0]): Promise<string> {
    assertTenantAccess(adminOf(request), request.params.tenantId);
    if (!(await ctx.tenants.findById(request.params.tenantId))) throw new ApiError(ErrorCode.NotFound, 404, 'tenantId', 'Tenant not found');
    return request.params.tenantId;
  }

  r.get('/tenants/:tenantId/clients', {
    schema: {
      tags: ['admin'],
      summary: "A tenant's clients, paginated; q searches id and name",
      security: adminSecurity,
      params: adminTenantParamsSchema,
      querystring: adminClientListQuerySchema,
      response: { 200: adminClientListSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminClientList> => clients.list(await tenantOf(request), request.query),
  });

  r.post('/tenants/:tenantId/clients', {
    schema: {
      tags: ['admin'],
      summary: 'Creates a client in the tenant; a confidential one gets a generated secret, answered this once (clientSecret)',
      description: `id: letters, digits, ., - and _ (at most 100); 409 (1062) when taken. name and redirect_uris required. ${RULES}`,
      security: adminSecurity,
      params: adminTenantParamsSchema,
      body: adminClientCreateBodySchema,
      response: { 201: adminClientAnswerSchema, ...adminErrorResponses, 409: errorEnvelopeSchema },
    },
    handler: async (request, reply): Promise<AdminClientAnswer> => {
      const tenantId = await tenantOf(request);
      const answer = await clients.create(tenantId, request.body, adminActor(request));
      reply.status(201);
      return answer;
    },
  });

  r.get('/tenants/:tenantId/clients/:clientId', {
    schema: {
      tags: ['admin'],
      summary: 'A client, with every setting (secrets only as whether they are set)',
      security: adminSecurity,
      params: adminClientParamsSchema,
      response: { 200: adminClientSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminClient> => {
      const tenantId = await tenantOf(request);
      return toAdminClient(await clients.mustFind(tenantId, request.params.clientId));
    },
  });

  r.patch('/tenants/:tenantId/clients/:clientId', {
    schema: {
      tags: ['admin'],
      summary: "Changes a client's settings: the fields given, and only those",
      description: `${RULES} A client turned confidential gets a generated secret (clientSecret, once). Passgate's own clients (account, admin-console): operators only, and their URIs, grant types and auth method are fixed.`,
      security: adminSecurity,
      params: adminClientParamsSchema,
      body: adminClientUpdateBodySchema,
      response: { 200: adminClientAnswerSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminClientAnswer> => {
      const tenantId = await tenantOf(request);
      return clients.update(adminOf(request), tenantId, request.params.clientId, request.body, adminActor(request));
    },
  });

  r.delete('/tenants/:tenantId/clients/:clientId', {
    schema: {
      tags: ['admin'],
      summary: 'Deletes a client: its users can no longer sign in there, its tokens stop working',
      description: "Passgate's own clients (account, admin-console) cannot be deleted (403, 1301).",
      security: adminSecurity,
      params: adminClientParamsSchema,
      response: { 204: z.null(), ...adminErrorResponses },
    },
    handler: async (request, reply): Promise<null> => {
      const tenantId = await tenantOf(request);
      await clients.remove(tenantId, request.params.clientId, adminActor(request));
      reply.status(204);
      return null;
    },
  });

  r.post('/tenants/:tenantId/clients/:clientId/secret', {
    schema: {
      tags: ['admin'],
      summary: "Rotates a confidential client's secret: the new one is answered this once (clientSecret), the old one stops working at once",
      description: 'A public client (auth method none) has no secret: 400 (1002).',
      security: adminSecurity,
      params: adminClientParamsSchema,
      response: { 200: adminClientAnswerSchema, ...adminErrorResponses },
    },
    handler: async (request): Promise<AdminClientAnswer> => {
      const tenantId = await tenantOf(request);
      return clients.rotateSecret(tenantId, request.params.clientId, adminActor(request));
    },
  });
}
