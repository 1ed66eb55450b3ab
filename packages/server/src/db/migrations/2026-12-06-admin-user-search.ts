import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the admin console's lists (issue 17): the user search of a tenant (prefix searches
 * of e-mail, phone number and name, newest first) and the audit log (by tenant, by client, by time,
 * newest first). Forward only; never imports application code. Runs on SQLite and PostgreSQL alike.
 *
 * SQLite compares text bytewise (BINARY), so a prefix is searched as the range [prefix, next) on a
 * plain index: the unique (tenant_id, email) and (tenant_id, phone_number) indexes already serve
 * it. PostgreSQL compares by the database's collation, where such a range is not a prefix: there
 * the search is `LIKE 'prefix%'`, which uses an index only with `text_pattern_ops`.
 */

/** SQLite writes parameters as `?`, PostgreSQL as `$1`: the dialect, told without a query. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
function isPostgres(db: Kysely<any>): boolean {
  return sql`${1}`.compile(db).sql === '$1';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create index users_tenant_email_prefix_idx on users (tenant_id, email text_pattern_ops)`.execute(db);
    await sql`create index users_tenant_phone_prefix_idx on users (tenant_id, phone_number text_pattern_ops)`.execute(db);
    await sql`create index users_tenant_name_prefix_idx on users (tenant_id, lower(name) text_pattern_ops)`.execute(db);
  } else {
    await sql`create index users_tenant_name_prefix_idx on users (tenant_id, lower(name))`.execute(db);
  }
  await db.schema.createIndex('users_tenant_created_idx').on('users').columns(['tenant_id', 'created_at']).execute();

  await db.schema.createIndex('audit_events_tenant_idx').on('audit_events').columns(['tenant_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_client_idx').on('audit_events').columns(['client_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_created_idx').on('audit_events').column('created_at').execute();
}
