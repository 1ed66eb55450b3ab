import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshMigrationDatabase, type MigrationDatabase } from '../../../test/migration-database.ts';
import { migrateToLatest, type Db } from '../database.ts';

/** The partial provider-artifact indexes, on the engine the suite runs on (SQLite, or PostgreSQL with `npm run test:postgres`). */
describe('migration 2026-12-09-partial-payload-indexes', () => {
  let database: MigrationDatabase;
  let db: Db;
  let postgres = false;

  beforeAll(async () => {
    database = await freshMigrationDatabase();
    db = database.db;
    postgres = database.engine === 'postgres';
  });
  afterAll(() => database?.close());

  /**
   * The plan of a lookup by a bound value, as the adapter's queries are. On PostgreSQL sequential
   * scans are discouraged so a tiny table still shows whether the index can serve the query.
   */
  async function planOf(column: string, values: string[]): Promise<string> {
    const test = values.length === 1 ? sql`${sql.ref(column)} = ${values[0]}` : sql`${sql.ref(column)} in (${sql.join(values)})`;
    const query = sql`select id from oidc_payloads where ${test}`;
    if (!postgres) {
      const rows = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
      return rows.rows.map((row) => row.detail).join('\n');
    }
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('keeps every artifact and finds them by grant, user code, uid and account through indexes that leave nulls out', async () => {
    await database.migrateTo('2026-12-08-device-login-requester');
    const artifact = (model: string, id: string, columns: Partial<Record<'grant_id' | 'user_code' | 'uid' | 'account_id', string>>) => ({
      model,
      id,
      payload: JSON.stringify({ jti: id }),
      grant_id: null,
      user_code: null,
      uid: null,
      account_id: null,
      expires_at: Date.now() + 60_000,
      consumed_at: null,
      ...columns,
    });
    await db
      .insertInto('oidc_payloads')
      .values([
        artifact('Session', 's1', { uid: 'uid-1', account_id: 'user-1' }),
        artifact('RefreshToken', 'r1', { grant_id: 'g1', account_id: 'user-1' }),
        artifact('DeviceCode', 'd1', { grant_id: 'g2', user_code: 'ABCD-EFGH' }),
        artifact('Interaction', 'i1', {}),
      ])
      .execute();

    expect(await migrateToLatest(db, database.engine)).toContain('2026-12-09-partial-payload-indexes');

    const ids = async (column: 'grant_id' | 'user_code' | 'uid' | 'account_id', value: string) =>
      (await db.selectFrom('oidc_payloads').select('id').where(column, '=', value).orderBy('id').execute()).map((row) => row.id);
    expect(await ids('grant_id', 'g1')).toEqual(['r1']);
    expect(await ids('user_code', 'ABCD-EFGH')).toEqual(['d1']);
    expect(await ids('uid', 'uid-1')).toEqual(['s1']);
    expect(await ids('account_id', 'user-1')).toEqual(['r1', 's1']);
    expect((await db.selectFrom('oidc_payloads').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['d1', 'i1', 'r1', 's1']);

    for (const [name, column] of [
      ['oidc_payloads_grant_idx', 'grant_id'],
      ['oidc_payloads_user_code_idx', 'user_code'],
      ['oidc_payloads_uid_idx', 'uid'],
      ['oidc_payloads_account_idx', 'account_id'],
    ] as const) {
      const definition = postgres
        ? (await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = ${name} and schemaname = current_schema()`.execute(db)).rows[0]?.indexdef
        : (await sql<{ sql: string }>`select sql from sqlite_master where type = 'index' and name = ${name}`.execute(db)).rows[0]?.sql;
      expect(definition?.toLowerCase()).toMatch(new RegExp(`where.*${column}.* is not null`));
      expect(await planOf(column, ['x'])).toContain(name);
      expect(await planOf(column, ['x', 'y'])).toContain(name);
    }
  });
});
