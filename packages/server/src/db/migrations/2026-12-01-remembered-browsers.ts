import type { Kysely } from 'kysely';

/**
 * "Remember this browser" for 2-step verification: the tenant's setting (days a browser that passed
 * the second step may skip it; null: off, the default) and the remembered browsers themselves. A
 * row holds only a keyed digest (HMAC-SHA-256 with the server key) of the random secret the
 * browser keeps in its cookie, and is bound to the user and the tenant. Indexed by user: a sign-in
 * looks one up by id, and every way of ending them deletes a user's rows. Forward only; never
 * imports application code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenants').addColumn('remember_browser_days', 'integer').execute();
  await db.schema
    .createTable('remembered_browsers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_digest', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remembered_browsers_user_idx').on('remembered_browsers').columns(['user_id', 'created_at']).execute();
}
