import type { Kysely } from 'kysely';

/**
 * Who asked for a device sign-in: the address and browser (the user agent cut to 512 characters)
 * of the first device, so the device asked to approve it can show where the request comes from.
 * Null for the other kinds of challenge and for requests stored before. A refused request keeps
 * its row with the state 'denied' (the state column already holds any short word). Forward only;
 * never imports application code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webauthn_challenges').addColumn('requester_ip', 'varchar(64)').execute();
  await db.schema.alterTable('webauthn_challenges').addColumn('requester_user_agent', 'varchar(512)').execute();
}
