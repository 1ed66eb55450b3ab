import type { Kysely } from 'kysely';

/**
 * The browsers each account has signed in from, so that a sign-in from a browser it has never used
 * can be told to its owner (the new sign-in notice). A browser is known by a long-lived random key
 * in an HttpOnly cookie; only its keyed hash (HMAC-SHA-256 with the server key) is stored. At most
 * the 50 most recently seen browsers are kept per account (the application deletes the rest).
 * (user_id, browser_key_hash) is unique, which is also the index every sign-in's lookup uses; rows
 * go with their account (ON DELETE CASCADE). Forward only; never imports application code. Runs on
 * SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('known_browsers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('browser_key_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('known_browsers_user_key_idx').on('known_browsers').columns(['user_id', 'browser_key_hash']).unique().execute();
}
