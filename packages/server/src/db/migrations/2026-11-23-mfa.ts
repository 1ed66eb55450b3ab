import type { Kysely } from 'kysely';

/**
 * 2-step verification: the MFA tokens of second sign-in steps, the last TOTP time step each user
 * spent (so a code works once), and the authenticator secret awaiting confirmation. Forward only;
 * never imports application code. Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mfa_tokens')
    // The keyed hash of the token: the token itself is never stored.
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('interaction_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mfa_tokens_user_idx').on('mfa_tokens').column('user_id').execute();

  // One column per statement: SQLite adds columns one at a time.
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_enc', 'text').execute();
}
