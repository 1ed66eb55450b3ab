import type { Kysely } from 'kysely';

/**
 * Where a relying party lives, for the sign-in screens' way back to it when a request has expired
 * or already finished: its home page (OIDC `client_uri`) and the address that starts a new sign-in
 * there (OIDC `initiate_login_uri`). Forward only; never imports application code. Runs on SQLite
 * and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('client_uri', 'varchar(2048)').execute();
  await db.schema.alterTable('clients').addColumn('initiate_login_uri', 'varchar(2048)').execute();
}
