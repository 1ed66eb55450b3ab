import type { AppContext } from '../../context.ts';
import { AdminInputError } from '../admin-input-error.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { actorEvent, inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import { ensureAdminConsoleClient } from './admin-console-client.ts';
import { ensureAccountClient } from '../account/account-client.ts';
import { ADMIN_ROLES, createAdminRoleQueries, type AdminRole, type AdminRoleGrant } from './admin-roles.queries.ts';

export interface RoleChange {
  /** The user (of the console's tenant: the admin console signs in that tenant's users). */
  email: string;
  role: string;
  /** The tenant a tenant admin administers. For an operator, optional: the console's tenant, named to create the console's client in it on a first grant. */
  tenantId?: string;
}

export interface RoleChanged {
  userId: string;
  role: AdminRole;
  /** The tenant administered; null for an operator. */
  tenantId: string | null;
  /** The tenant whose users sign in to the admin console. */
  consoleTenantId: string;
  /** False when nothing changed (already granted, or not granted to revoke). */
  changed: boolean;
}

/**
 * Granting and revoking the admin roles (the command line's `passgate admin grant|revoke`). Admins
 * are users of the tenant of the built-in `admin-console` client, since that is whom the console
 * signs in; a first grant creates that client (in `--tenant`) when it does not exist yet.
 */
export function createAdminRoleService(ctx: AppContext) {
  async function resolve(input: RoleChange, creating: boolean) {
    const role = input.role as AdminRole;
    if (!ADMIN_ROLES.includes(role)) throw AdminInputError.of('role', `must be one of ${ADMIN_ROLES.join(', ')}`);
    if (role === 'tenant-admin' && !input.tenantId) throw AdminInputError.of('tenantId', 'is required for a tenant admin (the tenant they administer)');
    if (input.tenantId && !(await ctx.tenants.findById(input.tenantId))) throw AdminInputError.of('tenantId', `tenant '${input.tenantId}' does not exist`);

    // The account area's client first: the console's goes to its tenant when no --tenant is given.
    if (creating) await ensureAccountClient(ctx, { ...(input.tenantId ? { tenantId: input.tenantId } : {}), realign: false });
    const consoleTenantId = creating
      ? await ensureAdminConsoleClient(ctx, { ...(input.tenantId ? { tenantId: input.tenantId } : {}), realign: false })
      : (await ctx.clients.findById('admin-console'))?.tenantId;
    if (!consoleTenantId) {
      throw AdminInputError.of('tenantId', 'the admin console has no tenant yet: give --tenant, the tenant whose users sign in to the console');
    }
    if (role === 'operator' && input.tenantId && input.tenantId !== consoleTenantId) {
      throw AdminInputError.of(
        'tenantId',
        `operators administer every tenant and sign in to the console as users of tenant '${consoleTenantId}': leave --tenant out or give '${consoleTenantId}'`,
      );
    }
    const user = await ctx.users.findByEmail(consoleTenantId, input.email);
    if (!user) throw AdminInputError.of('email', `no account '${input.email}' in tenant '${consoleTenantId}' (the admin console signs in that tenant's users)`);
    return { role, user, consoleTenantId, tenantId: role === 'operator' ? null : (input.tenantId as string) };
  }

  return {
    async grant(input: RoleChange, actor: AdminActor = {}): Promise<RoleChanged> {
      const { role, user, consoleTenantId, tenantId } = await resolve(input, true);
      const changed = await inTransaction(ctx.db, async (trx) => {
        const granted = await createAdminRoleQueries(trx).grant(user.id, role, tenantId, actor.actorUserId ?? actor.by ?? 'cli');
        if (granted) {
          await createAuditQueries(trx).record({ type: 'admin.role_granted', tenantId: tenantId ?? consoleTenantId, userId: user.id, ...actorEvent(actor, { role, administers: tenantId ?? '*' }) });
        }
        return granted;
      });
      return { userId: user.id, role, tenantId, consoleTenantId, changed };
    },

    async revoke(input: RoleChange, actor: AdminActor = {}): Promise<RoleChanged> {
      const { role, user, consoleTenantId, tenantId } = await resolve(input, false);
      const changed = await inTransaction(ctx.db, async (trx) => {
        const revoked = await createAdminRoleQueries(trx).revoke(user.id, role, tenantId);
        if (revoked) {
          await createAuditQueries(trx).record({ type: 'admin.role_revoked', tenantId: tenantId ?? consoleTenantId, userId: user.id, ...actorEvent(actor, { role, administers: tenantId ?? '*' }) });
        }
        return revoked;
      });
      return { userId: user.id, role, tenantId, consoleTenantId, changed };
    },

    async list(): Promise<(AdminRoleGrant & { email: string | null })[]> {
      const grants = await createAdminRoleQueries(ctx.db).list();
      const emails = new Map<string, string | null>();
      for (const grant of grants) {
        if (!emails.has(grant.userId)) emails.set(grant.userId, (await ctx.users.findById(grant.userId))?.email ?? null);
      }
      return grants.map((grant) => ({ ...grant, email: emails.get(grant.userId) ?? null }));
    },
  };
}
