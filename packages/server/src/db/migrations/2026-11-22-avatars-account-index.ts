import { sql, type Kysely } from 'kysely';

/**
 * Avatars stored in the database, and the provider's artifacts indexed by account (so deleting an
 * account can delete its sessions, grants, tokens and codes). Forward only; never imports
 * application code. Runs on SQLite and PostgreSQL alike.
 */

/** SQLite writes parameters as `?`, PostgreSQL as `$1`: the dialect, told without a query. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
function isPostgres(db: Kysely<any>): boolean {
  return sql`${1}`.compile(db).sql === '$1';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);

  await db.schema
    .createTable('avatars')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('content_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('avatars_user_idx').on('avatars').column('user_id').execute();

  await db.schema.alterTable('oidc_payloads').addColumn('account_id', 'varchar(200)').execute();
  await db.schema.createIndex('oidc_payloads_account_idx').on('oidc_payloads').column('account_id').execute();
  // Artifacts written before this migration carry their account in the JSON payload only.
  if (postgres) {
    await sql`update oidc_payloads set account_id = (payload::jsonb ->> 'accountId')`.execute(db);
  } else {
    await sql`update oidc_payloads set account_id = json_extract(payload, '$.accountId') where json_valid(payload)`.execute(db);
  }
}
