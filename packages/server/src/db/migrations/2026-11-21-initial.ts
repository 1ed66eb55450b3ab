import type { Kysely } from 'kysely';

/** Forward only: later changes come as new migrations. Never imports application code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('brand_name', 'varchar(200)')
    .addColumn('terms_uri', 'varchar(2048)')
    .addColumn('privacy_uri', 'varchar(2048)')
    .addColumn('passwordless_authentication_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_based_authentication_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('registration_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reset_password_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('webauthn_allowed', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_policy', 'text')
    .addColumn('password_max_age_days', 'integer')
    .addColumn('password_warning_days', 'integer')
    .addColumn('password_history_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('custom_register_checkbox', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('logo_uri', 'varchar(2048)')
    .addColumn('theme', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('i18n', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('google_app_id', 'varchar(300)')
    .addColumn('facebook_app_id', 'varchar(300)')
    .addColumn('username_policy', 'text')
    .addColumn('recaptcha_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recaptcha_site_key', 'varchar(200)')
    .addColumn('recaptcha_secret_enc', 'text')
    .addColumn('terms_privacy', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('grant_types', 'text', (c) => c.notNull().defaultTo('["authorization_code","refresh_token"]'))
    .addColumn('token_endpoint_auth_method', 'varchar(40)', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clients_tenant_idx').on('clients').column('tenant_id').execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id'))
    .addColumn('email', 'varchar(254)')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone_number', 'varchar(32)')
    .addColumn('phone_number_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(255)')
    .addColumn('birthday', 'bigint')
    .addColumn('gender', 'varchar(16)')
    .addColumn('locale', 'varchar(16)')
    .addColumn('avatar_key', 'varchar(200)')
    .addColumn('password_hash', 'varchar(200)')
    .addColumn('password_changed_at', 'bigint')
    .addColumn('registration_method', 'varchar(32)', (c) => c.notNull().defaultTo('password'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .addColumn('enable_mfa', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('authenticator_type', 'varchar(16)')
    .addColumn('totp_secret_enc', 'text')
    .addColumn('failed_login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_tenant_email_uq').unique().on('users').columns(['tenant_id', 'email']).execute();
  await db.schema.createIndex('users_tenant_phone_uq').unique().on('users').columns(['tenant_id', 'phone_number']).execute();

  await db.schema
    .createTable('password_history')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_history_user_idx').on('password_history').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(40)', (c) => c.notNull())
    .addColumn('destination', 'varchar(254)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('payload', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('last_sent_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('one_time_codes_lookup_idx')
    .on('one_time_codes')
    .columns(['tenant_id', 'purpose', 'destination'])
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(64)')
    .addColumn('user_id', 'varchar(64)')
    .addColumn('client_id', 'varchar(100)')
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('details', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_user_idx').on('audit_events').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_type_idx').on('audit_events').columns(['type', 'created_at']).execute();

  await db.schema
    .createTable('oidc_payloads')
    .addColumn('model', 'varchar(40)', (c) => c.notNull())
    .addColumn('id', 'varchar(200)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'varchar(200)')
    .addColumn('user_code', 'varchar(200)')
    .addColumn('uid', 'varchar(200)')
    .addColumn('expires_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addPrimaryKeyConstraint('oidc_payloads_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_payloads_grant_idx').on('oidc_payloads').column('grant_id').execute();
  await db.schema.createIndex('oidc_payloads_user_code_idx').on('oidc_payloads').column('user_code').execute();
  await db.schema.createIndex('oidc_payloads_uid_idx').on('oidc_payloads').column('uid').execute();
  await db.schema.createIndex('oidc_payloads_expires_idx').on('oidc_payloads').column('expires_at').execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  // Development mode only: every e-mail and SMS the server "sent", for people and tests to read.
  await db.schema
    .createTable('dev_outbox')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .addColumn('recipient', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(500)')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('code', 'varchar(32)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dev_outbox_recipient_idx').on('dev_outbox').columns(['recipient', 'created_at']).execute();
}
