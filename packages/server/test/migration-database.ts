import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type MigrationProvider } from 'kysely';
import { createDatabase, type Db, type DbEngine } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { freshPostgresSchema } from './test-server.ts';

export interface MigrationDatabase {
  db: Db;
  engine: DbEngine;
  /** Runs the migrations up to and including `name`, as an older Passgate left the database. */
  migrateTo(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * An empty database on the engine the suite runs on (a new SQLite file, or a schema of its own on
 * PostgreSQL with `npm run test:postgres`), for a test that migrates it step by step.
 */
export async function freshMigrationDatabase(): Promise<MigrationDatabase> {
  const databaseUrl = process.env.DATABASE_URL;
  const postgres = databaseUrl?.startsWith('postgres') ? await freshPostgresSchema(databaseUrl) : undefined;
  const dir = postgres ? undefined : mkdtempSync(join(tmpdir(), 'passgate-migration-'));
  const db = createDatabase(postgres ? postgres.url : `sqlite:${join(dir!, 'test.sqlite')}`);
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  return {
    db,
    engine: postgres ? 'postgres' : 'sqlite',
    async migrateTo(name) {
      // As migrateToLatest does: on PostgreSQL, the migration tables of this schema, not of another test's.
      const migrationTableSchema = postgres ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
      const { error } = await new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) }).migrateTo(name);
      if (error) throw error;
    },
    async close() {
      await db.destroy();
      if (postgres) await postgres.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
