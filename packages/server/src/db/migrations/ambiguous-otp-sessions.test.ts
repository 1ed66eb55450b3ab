import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshMigrationDatabase, type MigrationDatabase } from '../../../test/migration-database.ts';
import { migrateToLatest, type Db } from '../database.ts';

/**
 * Found by an attack on the upgrade: a provider session signed in with the password and an
 * e-mailed code before the amr values changed said `['pwd', 'otp', 'mfa']`, which now reads as the
 * authenticator app, and was handed to the admin console. The migration ends such sessions.
 */
describe('migration 2026-12-12-ambiguous-otp-sessions', () => {
  let database: MigrationDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await freshMigrationDatabase();
    db = database.db;
  });
  afterAll(() => database?.close());

  it('ends the sessions and codes whose amr used otp in its old meaning, and leaves every other artifact', async () => {
    await database.migrateTo('2026-12-11-registrant-browser');
    const artifact = (model: string, id: string, payload: Record<string, unknown>) => ({
      model,
      id,
      payload: JSON.stringify({ kind: model, accountId: 'user-1', ...payload }),
      grant_id: null,
      user_code: null,
      uid: null,
      account_id: 'user-1',
      expires_at: null,
      consumed_at: null,
    });
    await (db as any)
      .insertInto('oidc_payloads')
      .values([
        artifact('Session', 'mailed-code', { amr: ['pwd', 'otp', 'mfa'] }),
        artifact('Session', 'passwordless', { amr: ['otp'] }),
        artifact('AuthorizationCode', 'code-mailed', { amr: ['pwd', 'otp', 'mfa'] }),
        artifact('Session', 'password-only', { amr: ['pwd'] }),
        artifact('Session', 'device', { amr: ['hwk', 'user', 'mfa'] }),
        artifact('Session', 'otp-in-a-name', { amr: ['pwd'], note: '"otp"' }),
        artifact('RefreshToken', 'refresh', { amr: ['pwd', 'otp', 'mfa'] }),
        artifact('Grant', 'grant', {}),
      ])
      .execute();

    expect(await migrateToLatest(db, database.engine)).toContain('2026-12-12-ambiguous-otp-sessions');
    const left = await db.selectFrom('oidc_payloads').select(['model', 'id']).orderBy('id').execute();
    expect(left).toEqual([
      { model: 'Session', id: 'device' },
      { model: 'Grant', id: 'grant' },
      { model: 'Session', id: 'otp-in-a-name' },
      { model: 'Session', id: 'password-only' },
      { model: 'RefreshToken', id: 'refresh' },
    ]);
  });
});
