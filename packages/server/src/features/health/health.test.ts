import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { startTcpProxy } from '../../../test/tcp-proxy.ts';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const redisUrl = process.env.REDIS_URL;

async function probe(server: TestServer, path: string) {
  const response = await fetch(`${server.url}${path}`);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type'), body: (await response.json()) as any };
}

describe('health probes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ captureLogs: true });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers live and ready while the database (and Redis, when configured) serve', async () => {
    expect(await probe(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await probe(server, '/health/ready');
    expect(ready).toMatchObject({ status: 200, type: expect.stringContaining('application/json') });
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', redis: redisUrl ? 'ok' : 'not configured' } });
    // The first probe path keeps working (the end-to-end runner waits on it).
    expect(await probe(server, '/healthz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('logs probes below info, and leaves them out of the OpenAPI document', async () => {
    const before = server.logs.length;
    await probe(server, '/health/live');
    await probe(server, '/health/ready');
    const probeLines = server.logs.slice(before).filter((line) => line.includes('/health/'));
    expect(probeLines).toEqual([]);
    const docs = (await (await fetch(`${server.url}/api/docs`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths).filter((path) => path.includes('health'))).toEqual([]);
  });

  it.skipIf(Boolean(postgresUrl))('fails ready (503, Retry-After) for a read-only or full SQLite database, and recovers', async () => {
    const setPragma = (statement: string) => sql.raw(statement).execute(server.ctx.db);
    await setPragma('PRAGMA query_only = ON');
    const readOnly = await probe(server, '/health/ready');
    expect(readOnly).toMatchObject({ status: 503, retryAfter: '5', body: { status: 'not ready', checks: { database: 'read-only' } } });
    await setPragma('PRAGMA query_only = OFF');
    expect((await probe(server, '/health/ready')).status).toBe(200);

    // Full: no page may be added beyond those the file has (and none is free).
    await setPragma('VACUUM');
    const { rows } = await sql<{ page_count: number }>`PRAGMA page_count`.execute(server.ctx.db);
    const pages = rows[0]!.page_count;
    const { rows: maxRows } = await sql<{ max_page_count: number }>`PRAGMA max_page_count`.execute(server.ctx.db);
    await setPragma(`PRAGMA max_page_count = ${pages}`);
    const full = await probe(server, '/health/ready');
    expect(full).toMatchObject({ status: 503, body: { checks: { database: 'disk full' } } });
    await setPragma(`PRAGMA max_page_count = ${maxRows[0]!.max_page_count}`);
    expect((await probe(server, '/health/ready')).status).toBe(200);
    // The probe itself left nothing behind.
    const { rows: tables } = await sql<{ name: string }>`select name from sqlite_master where name like 'passgate_health%'`.execute(server.ctx.db);
    expect(tables).toEqual([]);
    // The state changes were logged once each, with the detail the answer leaves out.
    expect(server.logs.filter((line) => line.includes('not ready: a dependency check failed')).length).toBeGreaterThanOrEqual(2);
    expect(server.logs.some((line) => line.includes('SQLITE_READONLY'))).toBe(true);
  });

  it.skipIf(Boolean(postgresUrl))('answers ready (503, locked) at once while another process holds the SQLite write lock, and live meanwhile', async () => {
    // A wait as long as the test's own limit: a probe that waited for the lock would never answer in time.
    const locked = await startTestServer({ env: { DATABASE_BUSY_TIMEOUT_MS: '120000' } });
    const { SQLite } = await import('../../db/sqlite-driver.ts');
    const other = new SQLite(locked.ctx.config.databaseUrl.slice('sqlite:'.length));
    try {
      other.exec('BEGIN EXCLUSIVE');
      const [ready, live] = await Promise.all([probe(locked, '/health/ready'), probe(locked, '/health/live')]);
      expect(ready).toMatchObject({ status: 503, retryAfter: '5', body: { checks: { database: 'locked' } } });
      expect(live).toMatchObject({ status: 200 });
      other.exec('ROLLBACK');
      expect(await probe(locked, '/health/ready')).toMatchObject({ status: 200, body: { checks: { database: 'ok' } } });
      // The probe put the connection's wait back: the server's own writes still wait for a lock.
      const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(locked.ctx.db);
      expect(rows[0]?.timeout).toBe(120000);
    } finally {
      other.close();
      await locked.close();
    }
  });

  it.skipIf(!postgresUrl)('fails ready on PostgreSQL when the sessions are read-only (a standby after a failover)', async () => {
    // The same data through sessions that refuse writes, as the database behind the pool.
    const replicaUrl = new URL(server.ctx.config.databaseUrl);
    replicaUrl.searchParams.set('options', `${replicaUrl.searchParams.get('options') ?? ''} -c default_transaction_read_only=on`.trim());
    const { createDatabase } = await import('../../db/database.ts');
    const replica = createDatabase(replicaUrl.toString());
    const primary = server.ctx.db;
    (server.ctx as { db: unknown }).db = replica;
    try {
      expect(await probe(server, '/health/ready')).toMatchObject({ status: 503, retryAfter: '5', body: { checks: { database: 'read-only' } } });
    } finally {
      (server.ctx as { db: unknown }).db = primary;
      await replica.destroy();
    }
    expect((await probe(server, '/health/ready')).status).toBe(200);
  });
});

describe('health probes when a dependency is gone', () => {
  it('fails ready when the database connection is closed, while live still answers', async () => {
    const server = await startTestServer({ seed: false });
    try {
      await server.ctx.db.destroy();
      const ready = await probe(server, '/health/ready');
      expect(ready).toMatchObject({ status: 503, retryAfter: '5', body: { status: 'not ready', checks: { database: 'unreachable' } } });
      expect(await probe(server, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
    } finally {
      await server.close().catch(() => undefined);
    }
  });

  it.skipIf(!redisUrl)('fails ready when Redis is disconnected', async () => {
    const server = await startTestServer({ seed: false });
    try {
      server.ctx.redis!.disconnect();
      const ready = await probe(server, '/health/ready');
      expect(ready).toMatchObject({ status: 503, body: { status: 'not ready', checks: { database: 'ok', redis: 'unreachable' } } });
    } finally {
      await server.close().catch(() => undefined);
    }
  });

  it.skipIf(!redisUrl)('answers within its timeout when Redis goes silent, and is ready again when it answers', async () => {
    const target = new URL(redisUrl!);
    const relay = await startTcpProxy(target.hostname, Number(target.port || 6379));
    const relayed = new URL(redisUrl!);
    relayed.port = String(relay.port);
    const server = await startTestServer({ seed: false, env: { REDIS_URL: relayed.toString() } });
    try {
      expect((await probe(server, '/health/ready')).status).toBe(200);
      relay.silence();
      const started = Date.now();
      const ready = await probe(server, '/health/ready');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(ready).toMatchObject({ status: 503, body: { checks: { redis: expect.stringMatching(/^(timeout|unreachable)$/) } } });
      relay.restore();
      await expect.poll(async () => (await probe(server, '/health/ready')).status, { timeout: 15_000, interval: 250 }).toBe(200);
    } finally {
      relay.restore();
      await server.close().catch(() => undefined);
      await relay.close();
    }
  });

  it.skipIf(!postgresUrl)('answers within its timeout when PostgreSQL goes silent', async () => {
    const schema = await freshPostgresSchema(postgresUrl!);
    const target = new URL(schema.url);
    const relay = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const relayed = new URL(schema.url);
    relayed.port = String(relay.port);
    const server = await startTestServer({ seed: false, databaseUrl: relayed.toString() });
    try {
      expect((await probe(server, '/health/ready')).status).toBe(200);
      relay.silence();
      const started = Date.now();
      const ready = await probe(server, '/health/ready');
      expect(Date.now() - started).toBeLessThan(5000);
      expect(ready).toMatchObject({ status: 503, body: { checks: { database: 'timeout' } } });
    } finally {
      relay.restore();
      await server.close().catch(() => undefined);
      await relay.close();
      await schema.drop();
    }
  });
});
