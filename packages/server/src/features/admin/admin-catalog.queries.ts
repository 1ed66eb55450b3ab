import { sql, type Kysely, type SelectQueryBuilder, type SqlBool, type Transaction } from 'kysely';
import { pageWindow, type AdminListQuery } from '@passgate/contract';
import type { Database } from '../../db/schema.ts';
import { toTenantRecord, type TenantRecord } from '../tenants/tenants.queries.ts';
import { toClientRecord, type ClientRecord } from '../clients/clients.queries.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** `q` as a LIKE pattern matching it anywhere, case-insensitively, with % _ and \ taken literally. */
function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `lower(column) LIKE pattern ESCAPE '\'`, the same on SQLite and PostgreSQL. */
const likeLower = (column: string, pattern: string) => sql<SqlBool>`(lower(${sql.ref(column)}) like ${pattern} escape '\\')`;

/** One page of `base`, searched by `q` anywhere in its id and name, in id order, with the count of all matches. */
async function searchedPage<T extends 'tenants' | 'clients'>(base: SelectQueryBuilder<Database, T, object>, query: AdminListQuery) {
  const searched = query.q ? base.where(sql<SqlBool>`(${likeLower('id', containsPattern(query.q))} or ${likeLower('name', containsPattern(query.q))})`) : base;
  const { limit, offset } = pageWindow(query);
  const [rows, count] = await Promise.all([
    searched.selectAll().orderBy(sql.ref('id')).limit(limit).offset(offset).execute(),
    searched.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** The admin API's paginated lists of tenants and clients (few rows: a search anywhere in id and name is cheap). */
export function createAdminCatalogQueries(db: Executor) {
  return {
    /** Tenants by id; `only` limits them to a tenant admin's (an empty list: none). */
    async listTenants(query: AdminListQuery, only?: string[]): Promise<{ items: TenantRecord[]; total: number }> {
      if (only && only.length === 0) return { items: [], total: 0 };
      const base = db.selectFrom('tenants');
      const { rows, total } = await searchedPage(only ? base.where('id', 'in', only) : base, query);
      return { items: rows.map(toTenantRecord), total };
    },

    async listClients(tenantId: string, query: AdminListQuery): Promise<{ items: ClientRecord[]; total: number }> {
      const { rows, total } = await searchedPage(db.selectFrom('clients').where('tenant_id', '=', tenantId), query);
      return { items: rows.map(toClientRecord), total };
    },
  };
}
