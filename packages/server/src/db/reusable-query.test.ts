import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, type Db } from './database.ts';
import { reusableQuery } from './reusable-query.ts';

describe('a query compiled once and run with new values', () => {
  let db: Db;
  beforeAll(async () => {
    db = createDatabase('sqlite::memory:');
    await migrateToLatest(db, 'sqlite');
  });
  afterAll(() => db.destroy());

  it('answers each call with its own values, keeps constants, binds null, and builds the query once', async () => {
    let built = 0;
    const insert = reusableQuery((db, row: { id: string; payload: string; grantId: string | null }) => {
      built += 1;
      return db.insertInto('oidc_payloads').values({ model: 'Grant', id: row.id, payload: row.payload, grant_id: row.grantId, user_code: null, uid: null, account_id: null, expires_at: null, consumed_at: null });
    });
    const byGrant = reusableQuery((db, key: { grantId: string }) => db.selectFrom('oidc_payloads').select(['id', 'model']).where('grant_id', '=', key.grantId).orderBy('id'));
    await insert(db, { id: 'a', payload: '{"n":1}', grantId: 'g1' });
    await insert(db, { id: 'b', payload: '{"n":2}', grantId: 'g2' });
    await insert(db, { id: 'c', payload: '{"n":3}', grantId: null });
    expect(built).toBe(1);
    expect((await byGrant(db, { grantId: 'g2' })).rows).toEqual([{ id: 'b', model: 'Grant' }]);
    expect((await byGrant(db, { grantId: 'g1' })).rows).toEqual([{ id: 'a', model: 'Grant' }]);
    const c = await db.selectFrom('oidc_payloads').selectAll().where('id', '=', 'c').executeTakeFirstOrThrow();
    expect(c).toMatchObject({ model: 'Grant', payload: '{"n":3}', grant_id: null, user_code: null });
  });

  it('refuses a call missing one of its values rather than binding something else', async () => {
    const byGrant = reusableQuery((db, key: { grantId: string }) => db.selectFrom('oidc_payloads').select('id').where('grant_id', '=', key.grantId));
    await expect(byGrant(db, {} as { grantId: string })).rejects.toThrow("no value for 'grantId'");
  });
});

describe('a query built from its values object whole', () => {
  it('is refused when built, instead of compiling a statement without its columns', async () => {
    const db = createDatabase('sqlite::memory:');
    const insert = reusableQuery((db, row: { model: string; id: string; payload: string }) => db.insertInto('oidc_payloads').values(row));
    await expect(insert(db, { model: 'Grant', id: 'x', payload: '{}' })).rejects.toThrow('read the values by name');
    await db.destroy();
  });
});
