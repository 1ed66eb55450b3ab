import type { Kysely } from 'kysely';

/**
 * What the Security page shows of each provider session ('Where you're signed in'): one row per
 * session, keyed by the provider session's uid (never the cookie value), with the sign-in time, the
 * last activity, the address and browser it was signed in from (the user agent cut to 512
 * characters) and when it lapses. Rows of ended sessions are deleted as they are found. Forward
 * only; never imports application code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('session_activity')
    .addColumn('session_uid', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_active_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('session_activity_user_idx').on('session_activity').column('user_id').execute();
  await db.schema.createIndex('session_activity_expires_idx').on('session_activity').column('expires_at').execute();
}
