import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, type Db } from './database.ts';

/**
 * Two connections to one SQLite file, as the server and the command line beside it are. Each has a
 * short busy wait: they share this test's one thread, so a wait for the other could never end.
 */
describe('SQLite transactions beside another process', () => {
  let dir: string | undefined;
  const opened: Db[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function twoConnections() {
    dir = mkdtempSync(join(tmpdir(), 'passgate-transactions-'));
    const url = `sqlite:${join(dir, 'passgate.sqlite')}`;
    const server = createDatabase(url, { busyTimeoutMs: 50 });
    const commandLine = createDatabase(url, { busyTimeoutMs: 50 });
    opened.push(server, commandLine);
    await sql`create table counters (name text primary key, value integer not null)`.execute(server);
    await sql`insert into counters (name, value) values ('granted', 0), ('sessions', 0)`.execute(server);
    return { server, commandLine };
  }

  const valueOf = async (db: Db, name: string) => (await sql<{ value: number }>`select value from counters where name = ${name}`.execute(db)).rows[0]?.value;

  it('a transaction that reads and then writes commits although the other process writes meanwhile', async () => {
    const { server, commandLine } = await twoConnections();
    let otherWrite: unknown = 'not tried';

    // Begun deferred, this transaction read a snapshot, the server committed after it, and the
    // transaction's write was refused at once (SQLITE_BUSY_SNAPSHOT, 'database is locked').
    await commandLine.transaction().execute(async (trx) => {
      const before = await valueOf(trx, 'granted');
      try {
        await sql`update counters set value = value + 1 where name = 'sessions'`.execute(server);
        otherWrite = 'committed';
      } catch (error) {
        otherWrite = (error as { code?: string }).code;
      }
      await sql`update counters set value = ${(before ?? 0) + 1} where name = 'granted'`.execute(trx);
    });

    expect(await valueOf(server, 'granted')).toBe(1);
    // The other writer was told to wait its turn (its busy wait ran out), not let in between.
    expect(otherWrite).toBe('SQLITE_BUSY');
    expect(await valueOf(server, 'sessions')).toBe(0);
    // Once the transaction is over, it writes as usual.
    await sql`update counters set value = value + 1 where name = 'sessions'`.execute(server);
    expect(await valueOf(commandLine, 'sessions')).toBe(1);
  });

  it('a transaction waits for, or is refused, the write lock before it runs anything, never halfway', async () => {
    const { server, commandLine } = await twoConnections();
    await server.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        let ran = false;
        await expect(
          commandLine.transaction().execute(async (trx) => {
            ran = true;
            await sql`update counters set value = 5 where name = 'granted'`.execute(trx);
          }),
        ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
        expect(ran).toBe(false);
      } finally {
        await sql`rollback`.execute(connection);
      }
    });
    expect(await valueOf(commandLine, 'granted')).toBe(0);
  });
});
