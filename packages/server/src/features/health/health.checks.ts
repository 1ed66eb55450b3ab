import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/database.ts';

/** What a check answers: 'ok', 'not configured', or a short reason safe to show without authentication. */
export type CheckResult = 'ok' | 'not configured' | 'timeout' | 'unreachable' | 'locked' | 'read-only' | 'disk full';

/** A check's failure: `reason` is answered, `detail` only logged (it may name hosts or files). */
export class CheckFailure extends Error {
  constructor(
    readonly reason: Exclude<CheckResult, 'ok' | 'not configured'>,
    readonly detail?: string,
  ) {
    super(detail ?? reason);
  }
}

/** Below this much free space SQLite's next checkpoint or page allocation would fail. */
const MIN_FREE_BYTES = 1024 * 1024;

/**
 * Whether the database takes writes, not only reads: a read-only or full database serves sign-in
 * pages and then fails every sign-in. Probes come every few seconds, so nothing is committed:
 * - SQLite: a table created and rolled back in one transaction (takes the write lock and allocates
 *   a page, so a read-only file, a lock held elsewhere or a database at max_page_count fails it,
 *   with nothing written to disk), and the free space of the file system, since in WAL
 *   mode a full disk shows only at commit or checkpoint.
 * - PostgreSQL: one round trip asking whether the session is read-only (a hot standby after a
 *   failover, or default_transaction_read_only).
 */
export async function checkDatabase(db: Db, databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    await checkSqlite(db, databaseUrl.slice('sqlite:'.length));
    return;
  }
  let readOnly: string | undefined;
  try {
    const { rows } = await sql<{ ro: string }>`select current_setting('transaction_read_only') as ro`.execute(db);
    readOnly = rows[0]?.ro;
  } catch (error) {
    throw new CheckFailure('unreachable', (error as Error).message);
  }
  if (readOnly !== 'off') throw new CheckFailure('read-only', `transaction_read_only is ${readOnly}`);
}

async function checkSqlite(db: Db, file: string): Promise<void> {
  try {
    await db.connection().execute(async (connection) => {
      // SQLite waits for a lock held by another process (the sqlite3 shell, a backup) inside the
      // statement, and better-sqlite3 runs statements on the event loop: the probe would freeze
      // every request, liveness included, for DATABASE_BUSY_TIMEOUT_MS. It asks without waiting
      // ('locked'), on the one connection it holds, and puts the wait back. Its transaction is its
      // own (begin immediate, as every transaction here: see database.ts) so that the wait is off
      // before the lock is asked for.
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
      await sql`pragma busy_timeout = 0`.execute(connection);
      try {
        await sql`begin immediate`.execute(connection);
        try {
          await sql`create table passgate_health_probe (x integer)`.execute(connection);
          await sql`insert into passgate_health_probe (x) values (1)`.execute(connection);
        } finally {
          await sql`rollback`.execute(connection);
        }
      } finally {
        await sql.raw(`pragma busy_timeout = ${Number(rows[0]?.timeout ?? 0)}`).execute(connection);
      }
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const reason =
      code === 'SQLITE_FULL'
        ? 'disk full'
        : code === 'SQLITE_READONLY' || /readonly/i.test(String(code))
          ? 'read-only'
          : typeof code === 'string' && code.startsWith('SQLITE_BUSY')
            ? 'locked'
            : 'unreachable';
    throw new CheckFailure(reason, `${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}`);
  }
  if (file === ':memory:' || file === '') return;
  const space = await statfs(dirname(resolve(file)));
  const free = space.bavail * space.bsize;
  if (free < MIN_FREE_BYTES) throw new CheckFailure('disk full', `${free} bytes free beside ${file}`);
}

/** PING; a client that is not connected fails at once instead of queueing the command until the timeout. */
export async function checkRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') throw new CheckFailure('unreachable', `Redis connection is ${redis.status}`);
  try {
    await redis.ping();
  } catch (error) {
    throw new CheckFailure('unreachable', (error as Error).message);
  }
}

/** Runs a check for at most `ms`: a silent dependency must not hold the probe (or pile them up). */
export async function bounded(check: () => Promise<void>, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckFailure('timeout', `no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch (error) {
    if (error instanceof CheckFailure) throw error;
    throw new CheckFailure('unreachable', (error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}
