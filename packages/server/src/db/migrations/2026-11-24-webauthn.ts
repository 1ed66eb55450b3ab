import { sql, type Kysely } from 'kysely';

/**
 * WebAuthn devices (issue 6): each user's registered credentials, and the challenges of their
 * ceremonies (registration, activation and deletion codes, sign-in with a device). Forward only;
 * never imports application code. Runs on SQLite and PostgreSQL alike.
 */

/** SQLite writes parameters as `?`, PostgreSQL as `$1`: the dialect, told without a query. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
function isPostgres(db: Kysely<any>): boolean {
  return sql`${1}`.compile(db).sql === '$1';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);

  await db.schema
    .createTable('webauthn_credentials')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url of the authenticator's credential id (at most 1023 bytes).
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull())
    // The COSE public key, as the authenticator gave it.
    .addColumn('public_key', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    // The signature counter is an unsigned 32-bit number.
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('device_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('webauthn_credentials_tenant_credential_uq').unique().on('webauthn_credentials').columns(['tenant_id', 'credential_id']).execute();
  await db.schema.createIndex('webauthn_credentials_user_idx').on('webauthn_credentials').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    // The keyed hash of the challenge id handed out: the id itself is never stored.
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('interaction_uid', 'varchar(128)')
    .addColumn('credential_id', 'varchar(64)', (c) => c.references('webauthn_credentials.id').onDelete('cascade'))
    .addColumn('webauthn_challenge', 'varchar(128)')
    // Keyed hash of the device sign-in's redirect URL key (only the first device holds the key).
    .addColumn('redirect_key_hash', 'varchar(128)')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_user_idx').on('webauthn_challenges').column('user_id').execute();
  await db.schema.createIndex('webauthn_challenges_expires_idx').on('webauthn_challenges').column('expires_at').execute();
}
