import type { Kysely } from 'kysely';

/**
 * Passkeys with autofill (issue 16): the challenges of passkey sign-ins, which name no user until
 * the authenticator answers (so they cannot live in webauthn_challenges, whose user_id is
 * required), and what registration learnt of each device: whether it is discoverable (a passkey the
 * browser can offer without a username) and backed up. Forward only; never imports application
 * code. Runs on SQLite and PostgreSQL alike.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkey_challenges')
    // The keyed hash of the WebAuthn challenge the authenticator signs: the challenge itself is never stored.
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', 'varchar(100)', (c) => c.notNull())
    // The provider interaction (sign-in challenge) the passkey sign-in belongs to.
    .addColumn('interaction_uid', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_interaction_idx').on('passkey_challenges').column('interaction_uid').execute();
  await db.schema.createIndex('passkey_challenges_expires_idx').on('passkey_challenges').column('expires_at').execute();

  // 1, 0, or null when the browser did not say (devices registered before, browsers without credProps).
  await db.schema.alterTable('webauthn_credentials').addColumn('discoverable', 'integer').execute();
  await db.schema.alterTable('webauthn_credentials').addColumn('backed_up', 'integer').execute();
}
