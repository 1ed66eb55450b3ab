import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Settings } from './settings.ts';

/**
 * Where one server keeps its data, fresh for every server the benchmark starts, so a run never
 * measures (or damages) data left by another: a new SQLite file, or a PostgreSQL schema of its
 * own plus a Redis key prefix of its own, both removed afterwards.
 */
export interface Backend {
  name: 'sqlite' | 'postgres';
  env: Record<string, string>;
  /** Where the server's log (and a SQLite file) goes. */
  dir: string;
  /** Drops the data; `keepFiles` leaves `dir` (log and SQLite file) to look at after a failure. */
  remove(keepFiles?: boolean): Promise<void>;
}

export async function freshBackend(settings: Settings, label: string): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), `passgate-bench-${label}-`));
  if (!settings.postgres) {
    return {
      name: 'sqlite',
      env: { DATABASE_URL: `sqlite:${join(dir, 'passgate.sqlite')}` },
      dir,
      async remove(keepFiles = false) {
        if (!keepFiles) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // The test servers' way of getting a schema of their own (search_path in the connection URL);
  // imported only here, since that module loads the whole server source.
  const { freshPostgresSchema } = await import('../test/test-server.ts');
  const schema = await freshPostgresSchema(settings.postgres.databaseUrl);
  const redisPrefix = `passgate-bench:${process.pid}:${label}:`;
  const { redisUrl } = settings.postgres;
  return {
    name: 'postgres',
    env: { DATABASE_URL: schema.url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisPrefix },
    dir,
    async remove(keepFiles = false) {
      try {
        await schema.drop();
        await removeRedisKeys(redisUrl, redisPrefix);
      } finally {
        if (!keepFiles) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Every key expires by itself, but a benchmark leaves nothing behind for that to clean up. */
async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
