import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { AuditEventRow, Database, UserIdentityRow, UserRow } from '../../db/schema.ts';
import type { DbEngine } from '../../db/database.ts';
import { detailText } from './audit-details.ts';
import { searchCondition, searchTerms } from './user-search.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface UserListQuery {
  tenantId: string;
  q?: string;
  status?: 'pending' | 'active' | 'disabled';
  page: number;
  pageSize: number;
}

/**
 * The audit types that record a finished sign-in. A passwordless code or a social sign-in that
 * still needs its second step is recorded again, as login.success, once that step passes.
 */
export const SIGN_IN_TYPES = ['login.success', 'passwordless.success', 'social.login', 'webauthn.login'] as const;

/** What the admin console reads about users: the tenant's search, and a user's page. */
export function createAdminUserQueries(db: Executor, engine: DbEngine) {
  return {
    /** One page of the tenant's users matching the search, newest first, and how many match in all. */
    async search(query: UserListQuery): Promise<{ rows: UserRow[]; total: number }> {
      const terms = searchTerms(query.q, engine);
      let base = db.selectFrom('users');
      base = terms ? base.where(searchCondition(engine, query.tenantId, terms)) : base.where('tenant_id', '=', query.tenantId);
      if (query.status) base = base.where('status', '=', query.status);
      const [rows, count] = await Promise.all([
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize)
          .execute(),
        base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.total ?? 0) };
    },

    async findInTenant(tenantId: string, userId: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
    },

    /** When the user last finished signing in (any method), or null. */
    async lastSignInAt(userId: string): Promise<number | null> {
      const row = await db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.max('created_at').as('at'))
        .where('user_id', '=', userId)
        .where('type', 'in', [...SIGN_IN_TYPES])
        // A first factor that still needed its second step is no sign-in (yet).
        .where(sql<SqlBool>`${detailText(engine, 'secondStep')} is null`)
        .executeTakeFirst();
      return row?.at === null || row?.at === undefined ? null : Number(row.at);
    },

    async identities(userId: string): Promise<UserIdentityRow[]> {
      return db.selectFrom('user_identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
    },

    async recentEvents(userId: string, limit: number): Promise<AuditEventRow[]> {
      return db.selectFrom('audit_events').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** The query plan of a search (EXPLAIN), for the tests that keep it on the indexes. */
    async explainSearch(query: UserListQuery): Promise<string> {
      const terms = searchTerms(query.q, engine);
      let base = db.selectFrom('users').select('id');
      base = terms ? base.where(searchCondition(engine, query.tenantId, terms)) : base.where('tenant_id', '=', query.tenantId);
      const compiled = base.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.pageSize).compile();
      const explain = engine === 'postgres' ? 'explain ' : 'explain query plan ';
      const result = await db.executeQuery<Record<string, unknown>>({ ...compiled, sql: explain + compiled.sql });
      return result.rows.map((r) => String(r['QUERY PLAN'] ?? r.detail ?? JSON.stringify(r))).join('\n');
    },
  };
}
export type AdminUserQueries = ReturnType<typeof createAdminUserQueries>;
