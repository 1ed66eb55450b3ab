import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { createAppContext, type AppContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { seedDemo } from '../src/seed/demo-seed.ts';

export interface TestServer {
  url: string;
  ctx: AppContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * A real Passgate listening on a free port with a fresh database: a new SQLite file, or, when
 * DATABASE_URL points at PostgreSQL (npm run test:postgres), a schema of its own on that server.
 */
export async function startTestServer(options: { seed?: boolean; env?: Record<string, string>; config?: Partial<Config> } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'passgate-test-'));
  const baseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? await freshPostgresSchema(process.env.DATABASE_URL) : `sqlite:${join(dir, 'test.sqlite')}`;
  const port = await freePort();
  const config = loadConfig(
    { NODE_ENV: 'test', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, DATABASE_URL: baseUrl, LOG_LEVEL: 'silent', ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}), ...options.env },
    options.config,
  );
  const ctx = await createAppContext(config);
  if (options.seed ?? true) await seedDemo(ctx);
  const app = await buildApp(ctx, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: config.publicUrl,
    ctx,
    app,
    async close() {
      await app.close();
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function freePort(): Promise<number> {
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

/** A schema named for this test run, selected through the connection's search_path. */
async function freshPostgresSchema(databaseUrl: string): Promise<string> {
  const pg = await import('pg');
  const schema = `t_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const client = new pg.default.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
