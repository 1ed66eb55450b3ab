import type { Kysely } from 'kysely';

/**
 * OpenID Connect Back-Channel Logout 1.0 for relying parties: where the provider posts a logout
 * token when a session of theirs ends (`backchannel_logout_uri`, null for none), and whether that
 * token must carry the session's `sid` (`backchannel_logout_session_required`). Forward only; never
 * imports application code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('backchannel_logout_uri', 'varchar(2048)').execute();
  await db.schema.alterTable('clients').addColumn('backchannel_logout_session_required', 'integer', (column) => column.notNull().defaultTo(0)).execute();
}
