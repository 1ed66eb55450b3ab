import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';

export type Db = Kysely<Database>;
export type DbEngine = 'sqlite' | 'postgres';

// PostgreSQL returns bigint as a string; our bigints are millisecond timestamps that fit a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function databaseEngine(url: string): DbEngine {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export function createDatabase(url: string): Db {
  if (databaseEngine(url) === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Runs every pending migration; forward only. Throws when one fails. */
export async function migrateToLatest(db: Db, engine: DbEngine): Promise<string[]> {
  // On PostgreSQL the migration tables live in the connection's current schema; saying so keeps
  // Kysely from mistaking another schema's tables (one database, several schemas) for ours.
  const migrationTableSchema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
