import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { authenticateAccessToken } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { AdminActor } from '../tenants/tenants.service.ts';
import { createAdminRoleQueries } from './admin-roles.queries.ts';
import { hasStrongTwoStep, usedStrongTwoStep } from './admin-two-step.ts';

/** The built-in public PKCE client of the admin console; the admin API accepts only its access tokens. */
export const ADMIN_CONSOLE_CLIENT_ID = 'admin-console';

/** Who is calling the admin API, set on `request.admin` by `requireAdmin` before anything else runs. */
export interface AdminPrincipal {
  userId: string;
  /** The admin's own account. */
  user: UserRow;
  /** An operator administers every tenant. */
  operator: boolean;
  /** The tenants this admin administers as a tenant admin (sorted). */
  tenantAdminOf: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminPrincipal;
  }
}

/**
 * The admin behind a request: a bearer access token of the `admin-console` client (any other
 * client's token, the account area's included, is 401/1102; none is 401/1101), of an active user
 * holding at least one admin role (else 403/1301) who has set up 2-step verification with an
 * authenticator app or a device (else 403/1304, so the console can send them to set it up), and
 * whose sign-in used it (else 403/1307, so the console signs in again with prompt=login): having
 * a device is not using it (admin-two-step.ts).
 */
export async function authenticateAdmin(ctx: AppContext, request: FastifyRequest): Promise<AdminPrincipal> {
  const { user, amr } = await authenticateAccessToken(ctx, request, ADMIN_CONSOLE_CLIENT_ID);
  const roles = await createAdminRoleQueries(ctx.db).rolesOf(user.id);
  if (!roles.operator && roles.tenantAdminOf.length === 0) throw new ApiError(ErrorCode.ClientLacksPermission, 403);
  if (!(await hasStrongTwoStep(ctx, user))) throw new ApiError(ErrorCode.AdminNeedsTwoStep, 403);
  if (!usedStrongTwoStep(amr)) throw new ApiError(ErrorCode.SignInWithStrongTwoStep, 403);
  return { userId: user.id, user, ...roles };
}

/**
 * An `onRequest` hook for every admin route (admin.routes.ts adds it to the whole prefix): it runs
 * before the body is parsed or validated, so a caller who is no admin learns nothing about the
 * route beyond 401/403.
 */
export function requireAdmin(ctx: AppContext) {
  return async function adminOnly(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    request.admin = await authenticateAdmin(ctx, request);
  };
}

/** The admin `requireAdmin` found (a route outside the admin prefix has none: a programming error). */
export function adminOf(request: FastifyRequest): AdminPrincipal {
  if (!request.admin) throw new Error('admin route registered outside the admin prefix: requireAdmin did not run');
  return request.admin;
}

export function canAccessTenant(admin: AdminPrincipal, tenantId: string): boolean {
  return admin.operator || admin.tenantAdminOf.includes(tenantId);
}

/** 403/1301 unless the admin is an operator or a tenant admin of `tenantId`. */
export function assertTenantAccess(admin: AdminPrincipal, tenantId: string): void {
  if (!canAccessTenant(admin, tenantId)) throw new ApiError(ErrorCode.ClientLacksPermission, 403);
}

/** 403/1301 unless the admin is an operator. */
export function assertOperator(admin: AdminPrincipal): void {
  if (!admin.operator) throw new ApiError(ErrorCode.ClientLacksPermission, 403);
}

/**
 * The actor of an admin action, for the services' audit records: details.by = 'admin' and
 * details.actorUserId = the admin's user id, with the request's IP and user agent.
 */
export function adminActor(request: FastifyRequest): AdminActor & { by: 'admin'; actorUserId: string } {
  const admin = adminOf(request);
  return { by: 'admin', actorUserId: admin.userId, ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** The `details` every admin action's audit record carries (for records written outside the services). */
export function adminAuditDetails(request: FastifyRequest, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { by: 'admin', actorUserId: adminOf(request).userId, ...extra };
}
