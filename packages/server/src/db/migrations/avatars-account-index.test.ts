import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshMigrationDatabase, type MigrationDatabase } from '../../../test/migration-database.ts';
import { migrateToLatest, type Db } from '../database.ts';

/** The avatars / account-index migration, on the engine the suite runs on (SQLite, or PostgreSQL with `npm run test:postgres`). */
describe('migration 2026-11-22-avatars-account-index', () => {
  let database: MigrationDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await freshMigrationDatabase();
    db = database.db;
  });
  afterAll(() => database?.close());

  it('indexes the provider artifacts written before it by account, and stores avatar bytes as they are', async () => {
    await database.migrateTo('2026-11-21-initial');
    const artifact = (id: string, payload: Record<string, unknown>) => ({ model: 'Session', id, payload: JSON.stringify(payload), grant_id: null, user_code: null, uid: null, expires_at: null, consumed_at: null });
    await (db as any).insertInto('oidc_payloads').values([artifact('s1', { accountId: 'user-1', kind: 'Session' }), artifact('s2', { kind: 'Session' })]).execute();

    expect(await migrateToLatest(db, database.engine)).toContain('2026-11-22-avatars-account-index');
    const rows = await db.selectFrom('oidc_payloads').select(['id', 'account_id']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 's1', account_id: 'user-1' },
      { id: 's2', account_id: null },
    ]);

    const now = Date.now();
    await db.insertInto('tenants').values({ id: 't', name: 't', brand_name: null, terms_uri: null, privacy_uri: null, passwordless_authentication_allowed: 1, password_based_authentication_allowed: 1, registration_allowed: 1, reset_password_allowed: 1, webauthn_allowed: 1, password_policy: null, password_max_age_days: null, password_warning_days: null, password_history_size: 0, custom_register_checkbox: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('users').values({ id: 'u', tenant_id: 't', email: 'u@example.com', email_verified: 1, phone_number: null, phone_number_verified: 0, name: null, birthday: null, gender: null, locale: null, avatar_key: null, password_hash: null, password_changed_at: null, registration_method: 'password', status: 'active', enable_mfa: 0, authenticator_type: null, totp_secret_enc: null, failed_login_count: 0, locked_until: null, created_at: now, updated_at: now }).execute();
    const bytes = Buffer.concat([Buffer.from([0, 255, 0, 1]), randomBytes(70_000)]);
    await db.insertInto('avatars').values({ key: 'k', user_id: 'u', content_type: 'image/webp', data: bytes, created_at: now }).execute();
    const stored = await db.selectFrom('avatars').select('data').where('key', '=', 'k').executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(stored.data)).toBe(true);
    expect(Buffer.from(stored.data).equals(bytes)).toBe(true);
    // Deleting the user deletes its avatar.
    await db.deleteFrom('users').where('id', '=', 'u').execute();
    expect(await db.selectFrom('avatars').selectAll().execute()).toEqual([]);
  });
});
