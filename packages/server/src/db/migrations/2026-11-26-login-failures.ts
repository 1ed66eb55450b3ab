import type { Kysely } from 'kysely';

/**
 * Failed sign-ins of usernames without a password to check (no such account, or an account that
 * signs in another way), counted and locked like accounts' own, so the lockout does not tell who
 * has an account; and the time of each account's last failed sign-in, so that accounts forget a
 * run of failures exactly when those usernames do. Forward only; never imports application code.
 * Runs on SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    // A keyed hash of the username as typed (normalised): people type passwords into that field.
    .addColumn('username_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addPrimaryKeyConstraint('login_failures_pk', ['tenant_id', 'username_hash'])
    .execute();
  // Forgotten rows are deleted by their last failure.
  await db.schema.createIndex('login_failures_last_failure_idx').on('login_failures').column('last_failure_at').execute();

  await db.schema.alterTable('users').addColumn('last_failed_login_at', 'bigint').execute();
}
