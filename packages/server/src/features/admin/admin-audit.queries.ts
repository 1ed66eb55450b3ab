import { sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import type { AuditEventRow, Database } from '../../db/schema.ts';
import type { DbEngine } from '../../db/database.ts';
import { detailText } from './audit-details.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Which audit records an admin asks for. `tenantIds` is the tenants the admin may see (undefined: every record, operators only). */
export interface AuditFilter {
  tenantIds?: readonly string[];
  tenantId?: string;
  type?: string;
  userId?: string;
  clientId?: string;
  /** Unix milliseconds, inclusive. */
  from?: number;
  /** Unix milliseconds, exclusive. */
  to?: number;
}

/** Where a page of a long export goes on from: the last record's time and id (newest first). */
export interface AuditCursor {
  createdAt: number;
  id: string;
}

export const DAY_MS = 86_400_000;

/** Audit records read in one grouped query per chart: the sign-in types and how each counts. */
const SUCCESS_TYPES = ['login.success', 'passwordless.success', 'social.login', 'webauthn.login'] as const;
const FAILURE_TYPES = ['login.failure', 'passwordless.failure', 'social.login_failed', 'webauthn.login_failed', 'mfa.failure'] as const;
const LOCK_TYPES = ['login.locked'] as const;

export interface SignInBucket {
  /** Days since 1970-01-01 in the caller's time zone. */
  day: number;
  type: string;
  method: string | null;
  provider: string | null;
  pending: boolean;
  count: number;
}

/** The admin console's audit log, its CSV export and its sign-in chart. */
export function createAdminAuditQueries(db: Executor, engine: DbEngine) {
  function filtered<O>(query: SelectQueryBuilder<Database, 'audit_events', O>, filter: AuditFilter): SelectQueryBuilder<Database, 'audit_events', O> {
    let q = query;
    if (filter.tenantIds) q = filter.tenantIds.length > 0 ? q.where('tenant_id', 'in', [...filter.tenantIds]) : q.where(sql<boolean>`1 = 0`);
    if (filter.tenantId) q = q.where('tenant_id', '=', filter.tenantId);
    if (filter.type) q = q.where('type', '=', filter.type);
    if (filter.userId) q = q.where('user_id', '=', filter.userId);
    if (filter.clientId) q = q.where('client_id', '=', filter.clientId);
    if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
    return q;
  }

  return {
    /** One page of matching records, newest first, and how many match in all. */
    async list(filter: AuditFilter, page: number, pageSize: number): Promise<{ rows: AuditEventRow[]; total: number }> {
      const base = filtered(db.selectFrom('audit_events'), filter);
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
        base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirst(),
      ]);
      return { rows, total: Number(count?.total ?? 0) };
    },

    /** The next `limit` matching records after `cursor`, newest first (keyset paging, for long exports). */
    async after(filter: AuditFilter, cursor: AuditCursor | undefined, limit: number): Promise<AuditEventRow[]> {
      let q = filtered(db.selectFrom('audit_events'), filter);
      if (cursor) {
        q = q.where((eb) => eb.or([eb('created_at', '<', cursor.createdAt), eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '<', cursor.id)])]));
      }
      return q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },

    /** How people know these accounts (e-mail address, else phone number), by user id; accounts that are gone are left out. */
    async accountLabels(userIds: readonly string[]): Promise<Map<string, string>> {
      const ids = [...new Set(userIds)];
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'email', 'phone_number']).where('id', 'in', ids).execute();
      return new Map(rows.flatMap((row) => (row.email ?? row.phone_number ? [[row.id, (row.email ?? row.phone_number) as string] as const] : [])));
    },

    /**
     * Sign-ins, failures and lockouts in [from, to), counted in one grouped query by local day
     * (`offsetMs` east of UTC), type, method or provider, and whether a second step was still due.
     */
    async signInBuckets(filter: Pick<AuditFilter, 'tenantIds' | 'tenantId'>, from: number, to: number, offsetMs: number): Promise<SignInBucket[]> {
      const day = sql<number>`(audit_events.created_at + ${sql.lit(offsetMs)}) / ${sql.lit(DAY_MS)}`;
      const method = detailText(engine, 'method');
      const provider = detailText(engine, 'provider');
      const pending = sql<number>`case when ${detailText(engine, 'secondStep')} is null then 0 else 1 end`;
      const rows = await filtered(db.selectFrom('audit_events'), { ...filter, from, to })
        .where('type', 'in', [...SUCCESS_TYPES, ...FAILURE_TYPES, ...LOCK_TYPES])
        .select([day.as('day'), 'type', method.as('method'), provider.as('provider'), pending.as('pending'), (eb) => eb.fn.countAll<number | string>().as('count')])
        .groupBy([day, 'type', method, provider, pending])
        .execute();
      return rows.map((r) => ({ day: Number(r.day), type: r.type, method: r.method, provider: r.provider, pending: Number(r.pending) === 1, count: Number(r.count) }));
    },
  };
}
export type AdminAuditQueries = ReturnType<typeof createAdminAuditQueries>;

export const SIGN_IN_SUCCESS_TYPES: readonly string[] = SUCCESS_TYPES;
export const SIGN_IN_FAILURE_TYPES: readonly string[] = FAILURE_TYPES;
