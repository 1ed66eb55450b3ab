import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminCodeSentSchema,
  adminTenantParamsSchema,
  adminUserDetailSchema,
  adminUserDeviceParamsSchema,
  adminUserListQuerySchema,
  adminUserListSchema,
  adminUserParamsSchema,
  errorEnvelopeSchema,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { localeFromAcceptLanguage } from '../../messaging/templates/templates.ts';
import { adminActor, adminOf, assertTenantAccess } from './admin-auth.ts';
import { adminErrorResponses, adminSecurity } from './admin-errors.ts';
import { createAdminUserService } from './admin-users.service.ts';

const tags = ['admin: users'];
const withConflict = { ...adminErrorResponses, 409: errorEnvelopeSchema };
const USER = '/tenants/:tenantId/users/:userId';
type UserParams = z.infer<typeof adminUserParamsSchema>;
const OPERATOR_NOTE = "An operator's account, and that of an admin of a tenant you do not administer, is acted on by operators only (403 1301 for a tenant admin). ";

/**
 * The admin console's users (issue 17): a tenant's search, a user's page and the support actions.
 * Operators reach every tenant, tenant admins their own (else 403 1301); each action is audited
 * with the admin as actor and answers the user's page as it now is.
 */
export async function adminUserRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const users = createAdminUserService(ctx);

  /** The admin, once allowed in the path's tenant. */
  const allowed = (request: FastifyRequest, tenantId: string) => {
    const admin = adminOf(request);
    assertTenantAccess(admin, tenantId);
    return admin;
  };

  api.get('/tenants/:tenantId/users', {
    schema: {
      tags,
      summary: "Search a tenant's users",
      description:
        '`q` is the beginning of an e-mail address (with an @), of a phone number (digits; +84 reads as 0), or of a name (any case); ' +
        'blank lists every user. `status` keeps only pending, active or disabled accounts. Newest first, paginated. 404 1050 for an unknown tenant.',
      security: adminSecurity,
      params: adminTenantParamsSchema,
      querystring: adminUserListQuerySchema,
      response: { 200: adminUserListSchema, ...adminErrorResponses },
    },
    handler: async (request) => {
      allowed(request, request.params.tenantId);
      return users.list(request.params.tenantId, request.query);
    },
  });

  api.get(USER, {
    schema: {
      tags,
      summary: "A user's page",
      description: 'Profile, status and lockout, registration method, last sign-in, linked Google/Facebook identities, devices, 2-step method, admin roles and the 20 most recent audit records. 404 1010 for no such user in the tenant.',
      security: adminSecurity,
      params: adminUserParamsSchema,
      response: { 200: adminUserDetailSchema, ...adminErrorResponses },
    },
    handler: async (request) => {
      allowed(request, request.params.tenantId);
      return users.detail(request.params.tenantId, request.params.userId);
    },
  });

  const action = (
    method: 'post' | 'delete',
    path: string,
    summary: string,
    description: string,
    run: (request: FastifyRequest, p: UserParams) => Promise<unknown>,
  ) =>
    api.route({
      method,
      url: `${USER}${path}`,
      schema: { tags, summary, description: OPERATOR_NOTE + description, security: adminSecurity, params: adminUserParamsSchema, response: { 200: adminUserDetailSchema, ...withConflict } },
      handler: async (request) => run(request, request.params as UserParams) as Promise<z.infer<typeof adminUserDetailSchema>>,
    });

  action('post', '/disable', 'Disable a user', 'The account can no longer sign in, and its sessions and tokens end at once (audited user.disabled and sessions.ended). 409 1305 unless active, 1306 for your own account.', (r, p) =>
    users.disable(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId),
  );
  action('post', '/enable', 'Enable a disabled user', 'The account may sign in again (audited user.enabled). 409 1305 unless disabled.', (r, p) => users.enable(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId));
  action('post', '/unlock', 'Unlock a user', 'Lifts the lockout after wrong passwords and forgets the run of failures (audited user.unlocked).', (r, p) =>
    users.unlock(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId),
  );
  action('delete', '/mfa', 'Turn 2-step verification off', 'Forgets the authenticator secret, the backup codes and the remembered browsers (audited mfa.disabled). 409 1305 when 2-step is already off, 1306 for your own account (the account area changes it, with the password).', (r, p) =>
    users.turnOffTwoStep(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId),
  );
  action('post', '/sign-out', 'Sign a user out everywhere', 'Every session, grant, access and refresh token ends; relying parties with a back-channel logout URI are told (audited sessions.ended).', (r, p) =>
    users.signOut(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId),
  );

  const codeRoute = (path: string, summary: string, description: string, run: (request: FastifyRequest, p: UserParams) => Promise<z.infer<typeof adminCodeSentSchema>>) =>
    api.post(`${USER}${path}`, {
      schema: {
        tags,
        summary,
        description: OPERATOR_NOTE + description + ' In the user\'s language (else the admin\'s). 429 1291 within 60 s of the last code to the same address; 503 1292 when it cannot be sent.',
        security: adminSecurity,
        params: adminUserParamsSchema,
        response: { 200: adminCodeSentSchema, ...withConflict, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema },
      },
      handler: async (request) => run(request, request.params),
    });

  codeRoute('/activation', 'Resend the activation code', 'A new activation code to the address a pending account registered with (audited code.sent). 409 1013 when the account is not pending.', (r, p) =>
    users.resendActivation(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId, localeFromAcceptLanguage(r.headers['accept-language'])),
  );
  codeRoute(
    '/password-reset',
    'Send a password-reset code',
    "A recovery code, as 'Forgot password' sends, to the verified e-mail address (else phone number); the user sets a new password with it on the reset screen (audited password.recovery_requested). 403 1303 when the tenant does not allow reset; 409 1305 unless active with a password; 400 1027 without a verified address.",
    (r, p) => users.sendPasswordReset(allowed(r, p.tenantId), adminActor(r), p.tenantId, p.userId, localeFromAcceptLanguage(r.headers['accept-language'])),
  );

  api.delete(`${USER}/devices/:deviceId`, {
    schema: {
      tags,
      summary: "Remove a user's device",
      description: OPERATOR_NOTE + 'Deletes a WebAuthn device (audited webauthn.deleted). 404 for no such device of the user; 409 1306 for your own account (the account area removes it, with a code).',
      security: adminSecurity,
      params: adminUserDeviceParamsSchema,
      response: { 200: adminUserDetailSchema, ...adminErrorResponses },
    },
    handler: async (request) => users.removeDevice(allowed(request, request.params.tenantId), adminActor(request), request.params.tenantId, request.params.userId, request.params.deviceId),
  });

  api.delete(USER, {
    schema: {
      tags,
      summary: 'Delete a user',
      description:
        OPERATOR_NOTE +
        'Deletes the account for good, as the account area does: its devices, avatar, codes, sessions, grants and tokens go, and relying parties are told (audited account.deleted). ' +
        'Answers 204. 409 1306 for your own account.',
      security: adminSecurity,
      params: adminUserParamsSchema,
      response: { 204: z.null().describe('Deleted'), ...withConflict },
    },
    handler: async (request, reply) => {
      await users.remove(allowed(request, request.params.tenantId), adminActor(request), request.params.tenantId, request.params.userId);
      return reply.status(204).send(null);
    },
  });
}
