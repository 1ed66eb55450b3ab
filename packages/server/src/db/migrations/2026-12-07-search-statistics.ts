import { sql, type Kysely } from 'kysely';

/**
 * Finer statistics for the user search's prefix columns on PostgreSQL (issue 17). With the default
 * 100 histogram buckets, a selective name prefix on a 100,000-user tenant was estimated at a
 * thousand matches, and the planner then walked the newest-first index with a filter, reading the
 * whole tenant to find the few matches. A target of 1,000 brings the estimate near the truth, and
 * ANALYZE samples 300,000 rows, so tenants of that size are read whole and plans stay stable.
 * SQLite has no such setting. Forward only; never imports application code.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
function isPostgres(db: Kysely<any>): boolean {
  return sql`${1}`.compile(db).sql === '$1';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table users alter column email set statistics 1000`.execute(db);
  await sql`alter table users alter column phone_number set statistics 1000`.execute(db);
  // Column 2 of the index is the expression lower(name), whose statistics only the index holds.
  await sql`alter index users_tenant_name_prefix_idx alter column 2 set statistics 1000`.execute(db);
}
