import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLite } from '../db/sqlite-driver.ts';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isDependencyFailure } from './dependency-errors.ts';
import { maskConnectionUrl } from './mask-url.ts';

const withProps = (message: string, props: Record<string, unknown>, ErrorType: new (m: string) => Error = Error) => Object.assign(new ErrorType(message), props);

describe('isDependencyFailure', () => {
  it.each([
    // pg / pg-pool, as thrown by the drivers (message and code as they set them)
    ['pg: connection refused', withProps('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', errno: -111, syscall: 'connect', address: '127.0.0.1', port: 5432 })],
    ['pg: refused on every address of localhost (Node 20 AggregateError)', Object.assign(new AggregateError([withProps('connect ECONNREFUSED ::1:5432', { code: 'ECONNREFUSED' })], ''), { code: 'ECONNREFUSED' })],
    ['pg: reset', withProps('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' })],
    ['pg: timed out', withProps('connect ETIMEDOUT 10.0.0.1:5432', { code: 'ETIMEDOUT' })],
    ['pg: terminated', new Error('Connection terminated')],
    ['pg: terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') })],
    ['pg-pool: waiting for a client timed out', new Error('timeout exceeded when trying to connect')],
    ['pg: query_timeout', new Error('Query read timeout')],
    ['pg: client broken', new Error('Client has encountered a connection error and is not queryable')],
    ['PostgreSQL: statement timeout', withProps('canceling statement due to statement timeout', { code: '57014', severity: 'ERROR' })],
    ['PostgreSQL: admin shutdown (pg_terminate_backend)', withProps('terminating connection due to administrator command', { code: '57P01', severity: 'FATAL' })],
    ['PostgreSQL: crash shutdown', withProps('terminating connection because of crash of another server process', { code: '57P02' })],
    ['PostgreSQL: starting up', withProps('the database system is starting up', { code: '57P03' })],
    ['PostgreSQL: connection failure', withProps('connection failure', { code: '08006' })],
    ['PostgreSQL: too many connections', withProps('sorry, too many clients already', { code: '53300' })],
    ['PostgreSQL: a read-only session (a standby after a failover)', withProps('cannot execute INSERT in a read-only transaction', { code: '25006' })],
    ['PostgreSQL: disk full', withProps('could not extend file "base/16384/16385": No space left on device', { code: '53100' })],
    ['PostgreSQL: out of memory', withProps('out of memory', { code: '53200' })],
    // better-sqlite3
    ['SQLite: busy', withProps('database is locked', { code: 'SQLITE_BUSY' })],
    ['SQLite: read-only', withProps('attempt to write a readonly database', { code: 'SQLITE_READONLY' })],
    ['SQLite: full', withProps('database or disk is full', { code: 'SQLITE_FULL' })],
    ['SQLite: I/O error (extended code)', withProps('disk I/O error', { code: 'SQLITE_IOERR_WRITE' })],
    // ioredis
    ['ioredis: max retries per request', withProps('Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details.', { name: 'MaxRetriesPerRequestError' })],
    ['ioredis: connection closed', new Error('Connection is closed.')],
    ['ioredis: command timeout', new Error('Command timed out')],
    ['ioredis: offline queue off', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['ioredis: connect timeout', withProps('connect ETIMEDOUT', { errorno: 'ETIMEDOUT', code: 'ETIMEDOUT', syscall: 'connect' })],
    ['ioredis: refused', withProps('connect ECONNREFUSED 127.0.0.1:6379', { code: 'ECONNREFUSED' })],
    ['Redis: loading after a restart', withProps('LOADING Redis is loading the dataset in memory', { name: 'ReplyError' })],
    ['Redis: a replica during failover', withProps("READONLY You can't write against a read only replica.", { name: 'ReplyError' })],
    ['Redis: maxmemory reached', withProps("OOM command not allowed when used memory > 'maxmemory'.", { name: 'ReplyError' })],
    ['Redis: snapshots failing (disk full)', withProps('MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on disk.', { name: 'ReplyError' })],
    ['wrapped in a cause', new Error('storing the session failed', { cause: new Error('Connection is closed.') })],
  ])('%s is a dependency failure', (_name, error) => {
    expect(isDependencyFailure(error)).toBe(true);
  });

  it.each([
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a unique violation', withProps('duplicate key value violates unique constraint "users_pkey"', { code: '23505' })],
    ['a syntax error', withProps('syntax error at or near "selec"', { code: '42601' })],
    ['a SQLite constraint', withProps('UNIQUE constraint failed: users.id', { code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a Redis wrong type', withProps('WRONGTYPE Operation against a key holding the wrong kind of value', { name: 'ReplyError' })],
    ['a message that only mentions a timeout', new Error('Command timed out while the user waited')],
    ['not an error', 'Connection is closed.'],
    ['null', null],
  ])('%s is not', (_name, error) => {
    expect(isDependencyFailure(error)).toBe(false);
  });

  it('stops at a cycle of causes', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDependencyFailure(a)).toBe(false);
  });

  it('recognises what pg really throws for a refused connection', async () => {
    const client = new pg.Client({ connectionString: 'postgres://user:secret@127.0.0.1:1/x', connectionTimeoutMillis: 2000 });
    const error = await client.connect().then(() => null, (e: unknown) => e);
    expect(isDependencyFailure(error)).toBe(true);
  });

  it('recognises what better-sqlite3 really throws for a locked database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'passgate-deperr-'));
    try {
      const a = new SQLite(join(dir, 'x.sqlite'), { timeout: 0 });
      const b = new SQLite(join(dir, 'x.sqlite'), { timeout: 0 });
      a.exec('create table t (x)');
      a.exec('BEGIN IMMEDIATE');
      let error: unknown;
      try {
        b.exec('insert into t values (1)');
      } catch (e) {
        error = e;
      }
      a.exec('ROLLBACK');
      a.close();
      b.close();
      expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
      expect(isDependencyFailure(error)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('maskConnectionUrl', () => {
  it.each([
    ['postgres://user:secret@db:5432/passgate', 'postgres://user:***@db:5432/passgate'],
    ['postgres://db/passgate', 'postgres://db/passgate'],
    ['redis://:secret@redis:6379/0', 'redis://:***@redis:6379/0'],
    ['sqlite:./data/passgate.sqlite', 'sqlite:./data/passgate.sqlite'],
    // pg reads every query parameter as a setting, the password and the TLS key's passphrase included.
    ['postgres://user@db/passgate?password=secret&application_name=pg', 'postgres://user@db/passgate?password=***&application_name=pg'],
    ['postgres://user:secret@db/passgate?sslmode=require&sslpassword=secret', 'postgres://user:***@db/passgate?sslmode=require&sslpassword=***'],
    ['postgres://user@[db/passgate?password=secret', 'postgres://user@[db/passgate?password=***'],
  ])('%s → %s', (url, masked) => {
    expect(maskConnectionUrl(url)).toBe(masked);
    expect(maskConnectionUrl(url)).not.toContain('secret');
  });
});
