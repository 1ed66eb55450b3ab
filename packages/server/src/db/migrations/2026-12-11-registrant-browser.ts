import type { Kysely } from 'kysely';

/**
 * The browser that registered a pending account: the keyed hash of its long-lived browser key
 * (`passgate_browser`), or null when the registration came from a client that keeps no cookies.
 * Its activation code keeps the password and profile only when typed in that browser. Null for
 * accounts stored before (they keep the earlier rule). Forward only; never imports application
 * code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('registrant_browser_hash', 'varchar(64)').execute();
}
