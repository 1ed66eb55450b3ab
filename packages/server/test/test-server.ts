import { mkdtempSync, rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { createAppContext, type AppContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { seedDemo } from '../src/seed/demo-seed.ts';
import { ensureOwnClients } from '../src/features/clients/own-clients.ts';

export interface TestServer {
  /** Where this instance listens (for a `shareWith` instance, not its PUBLIC_URL, which is the first one's). */
  url: string;
  ctx: AppContext;
  app: FastifyInstance;
  /** Every log line of the server (request logs and the application's own), with `captureLogs`. */
  logs: string[];
  close(): Promise<void>;
}

/**
 * A real Passgate listening on a free port with a fresh database: a new SQLite file, or, when
 * DATABASE_URL points at PostgreSQL (npm run test:postgres), a schema of its own on that server.
 * With `shareWith`, a second instance of that server instead, as behind one load balancer: its
 * database, its Redis key prefix and its PUBLIC_URL; it seeds nothing and leaves them to the first
 * to clean up (close it first).
 */
export async function startTestServer(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    config?: Partial<Config>;
    captureLogs?: boolean;
    shareWith?: TestServer;
    /** A database the caller owns (kept after close), to restart a server on the same data. */
    databaseUrl?: string;
    /** Listen here (a restarted server keeps its PUBLIC_URL, so the seeded redirect URIs still match). */
    port?: number;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'passgate-test-'));
  const port = options.port ?? (await freePort());
  const shared = options.shareWith?.ctx.config;
  const postgres = !shared && !options.databaseUrl && process.env.DATABASE_URL?.startsWith('postgres') ? await freshPostgresSchema(process.env.DATABASE_URL) : undefined;
  const baseUrl = shared?.databaseUrl ?? options.databaseUrl ?? postgres?.url ?? `sqlite:${join(dir, 'test.sqlite')}`;
  const redisPrefix = shared?.redisKeyPrefix ?? `passgate-test:${process.pid}:${port}:`;
  const config = loadConfig(
    { NODE_ENV: 'test', PORT: String(port), PUBLIC_URL: shared?.publicUrl ?? `http://127.0.0.1:${port}`, DATABASE_URL: baseUrl, LOG_LEVEL: options.captureLogs ? 'trace' : 'silent', ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}), ...options.env },
    options.config,
  );
  const logs: string[] = [];
  const logStream = options.captureLogs ? new PassThrough() : undefined;
  logStream?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  const ctx = await createAppContext(config, { logStream });
  if (options.seed ?? !shared) await seedDemo(ctx);
  await ensureOwnClients(ctx);
  const app = await buildApp(ctx, logStream ? { logStream } : { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: shared ? `http://127.0.0.1:${port}` : config.publicUrl,
    ctx,
    app,
    logs,
    async close() {
      await app.close();
      if (ctx.redis && !shared) {
        const keys = await ctx.redis.keys(`${redisPrefix}*`);
        // KEYS takes the pattern as given and answers full names; DEL adds the prefix again.
        if (keys.length > 0) await ctx.redis.del(...keys.map((k) => k.slice(redisPrefix.length)));
      }
      await ctx.close();
      await postgres?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A schema named for this test server, selected through the connection's search_path. Inside a
 * vitest run it is dropped when the run ends (test/postgres-schemas.global.ts says why), so `drop`
 * only drops it at once outside one.
 */
export async function freshPostgresSchema(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const pg = await import('pg');
  const testRun = process.env.PASSGATE_TEST_SCHEMA_RUN;
  const schema = `t_${testRun ?? `${Date.now()}0000`}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const run = async (statement: string) => {
    const client = new pg.default.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: testRun ? async () => {} : () => run(`DROP SCHEMA ${schema} CASCADE`) };
}
