import type { Kysely } from 'kysely';

/**
 * Sign-in with Google and Facebook: the provider identities linked to accounts, the link tokens
 * of a sign-in waiting for the user to prove an existing account, and each client's Facebook app
 * secret (encrypted with the server key). Forward only; never imports application code. Runs on
 * SQLite and PostgreSQL alike.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    // The provider's own id of the person (Google's sub, Facebook's app-scoped user id).
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    // The e-mail address the provider gave when the identity was linked (for the record only).
    .addColumn('email', 'varchar(254)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_identities_subject_uq').unique().on('user_identities').columns(['tenant_id', 'provider', 'subject']).execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();

  await db.schema
    .createTable('social_link_tokens')
    // The keyed hash of the token: the token itself is never stored.
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('interaction_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('provider', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('social_link_tokens_user_idx').on('social_link_tokens').column('user_id').execute();

  await db.schema.alterTable('clients').addColumn('facebook_app_secret_encrypted', 'text').execute();
}
