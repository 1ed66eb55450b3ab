import { SQLite } from './sqlite-driver.ts';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statement-cache.ts';

describe('the SQLite statement cache', () => {
  it('prepares each text once, keeps the most recent ones, and answers as before', async () => {
    const sqlite = new SQLite(':memory:');
    let prepared = 0;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((text: string) => {
      prepared += 1;
      return prepare(text);
    }) as typeof sqlite.prepare;
    const db = new Kysely<{ t: { id: number; name: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, 3) }) });
    await sql`create table t (id integer primary key, name text)`.execute(db);
    for (let i = 1; i <= 5; i += 1) await db.insertInto('t').values({ id: i, name: `n${i}` }).execute();
    const byId = (id: number) => db.selectFrom('t').select('name').where('id', '=', id).executeTakeFirst();
    expect(await byId(2)).toEqual({ name: 'n2' });
    expect(await byId(4)).toEqual({ name: 'n4' });
    expect(await byId(9)).toBeUndefined();
    // create, insert and select: three texts, each prepared once however often it ran.
    expect(prepared).toBe(3);

    // A fourth text pushes out the least recently used (create), not the select in use.
    await db.selectFrom('t').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(await byId(5)).toEqual({ name: 'n5' });
    expect(prepared).toBe(4);
    await db.insertInto('t').values({ id: 6, name: 'n6' }).execute();
    expect(prepared).toBe(4);
    await db.destroy();
  });
});
