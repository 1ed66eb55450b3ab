import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export type AdminRole = 'operator' | 'tenant-admin';
export const ADMIN_ROLES: readonly AdminRole[] = ['operator', 'tenant-admin'];

/** What one user may administer: every tenant (operator) and/or the tenants they are tenant admin of. */
export interface AdminRoles {
  operator: boolean;
  tenantAdminOf: string[];
}

export interface AdminRoleGrant {
  userId: string;
  role: AdminRole;
  /** The tenant administered; null for an operator. */
  tenantId: string | null;
  grantedAt: number;
  grantedBy: string | null;
}

/** The admin_roles table (migration 2026-12-04-admin-roles). */
export function createAdminRoleQueries(db: Executor) {
  return {
    /** One indexed read per admin API call. */
    async rolesOf(userId: string): Promise<AdminRoles> {
      const rows = await db.selectFrom('admin_roles').select(['role', 'tenant_id']).where('user_id', '=', userId).execute();
      return {
        operator: rows.some((r) => r.role === 'operator'),
        tenantAdminOf: rows.filter((r) => r.role === 'tenant-admin' && r.tenant_id).map((r) => r.tenant_id as string).sort(),
      };
    },

    async list(filter: { userId?: string; tenantId?: string } = {}): Promise<AdminRoleGrant[]> {
      let query = db.selectFrom('admin_roles').selectAll().orderBy('granted_at');
      if (filter.userId) query = query.where('user_id', '=', filter.userId);
      if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
      return (await query.execute()).map((r) => ({
        userId: r.user_id,
        role: r.role as AdminRole,
        tenantId: r.tenant_id,
        grantedAt: r.granted_at,
        grantedBy: r.granted_by,
      }));
    },

    /** False when the grant already existed (nothing changes then). */
    async grant(userId: string, role: AdminRole, tenantId: string | null, grantedBy: string, at = Date.now()): Promise<boolean> {
      if (await this.has(userId, role, tenantId)) return false;
      await db.insertInto('admin_roles').values({ id: newId(), user_id: userId, role, tenant_id: tenantId, granted_at: at, granted_by: grantedBy }).execute();
      return true;
    },

    /** False when there was no such grant. */
    async revoke(userId: string, role: AdminRole, tenantId: string | null): Promise<boolean> {
      let query = db.deleteFrom('admin_roles').where('user_id', '=', userId).where('role', '=', role);
      query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
      const result = await query.executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async has(userId: string, role: AdminRole, tenantId: string | null): Promise<boolean> {
      let query = db.selectFrom('admin_roles').select('id').where('user_id', '=', userId).where('role', '=', role);
      query = tenantId === null ? query.where('tenant_id', 'is', null) : query.where('tenant_id', '=', tenantId);
      return (await query.executeTakeFirst()) !== undefined;
    },
  };
}
export type AdminRoleQueries = ReturnType<typeof createAdminRoleQueries>;
