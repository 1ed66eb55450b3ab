import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SQLite, type SqliteConnection } from './sqlite-driver.ts';
import { withStatementCache } from './sqlite-statement-cache.ts';
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type MigrationProvider, type SqliteDialectConfig } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { budgetSpentError, databaseBudgetLeft } from '../lib/database-budget.ts';

export type Db = Kysely<Database>;
export type DbEngine = 'sqlite' | 'postgres';

export function databaseEngine(url: string): DbEngine {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export interface DatabaseOptions {
  /** PostgreSQL: how long opening a connection may take. */
  connectTimeoutMs?: number;
  /** PostgreSQL: how long a statement may run; 0 for no limit. */
  statementTimeoutMs?: number;
  /** SQLite: how long a write waits for another writer's lock. */
  busyTimeoutMs?: number;
  /** Where a connection that broke while idle or in use is reported (never with the connection string). */
  onConnectionError?: (error: Error) => void;
}

export const DATABASE_DEFAULTS = { connectTimeoutMs: 5000, statementTimeoutMs: 10_000, busyTimeoutMs: 5000 } as const;

/** The database cannot be opened or written at all: start-up stops with this message. */
export class DatabaseUnavailableError extends Error {}

/** The PostgreSQL pool behind each database made here (Kysely keeps its own private), for its gauges. */
const pools = new WeakMap<Db, pg.Pool>();

/** The pg Pool behind `db`, or undefined on SQLite. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Db {
  const { connectTimeoutMs, statementTimeoutMs, busyTimeoutMs } = { ...DATABASE_DEFAULTS, ...definedOnly(options) };
  if (databaseEngine(url) === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    return new Kysely<Database>({ dialect: new ImmediateTransactionsSqliteDialect({ database: withStatementCache(openSqlite(file, busyTimeoutMs)) }) });
  }
  const report = options.onConnectionError ?? ((error: Error) => console.warn(`PostgreSQL connection error (the pool reconnects): ${error.message}`));
  // The pg driver loads with the first connection: a process on SQLite never pays for it.
  const db: Db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: async () => {
        const pool = createPool(await loadPg(), url, connectTimeoutMs, statementTimeoutMs, report);
        pools.set(db, pool);
        return pool;
      },
    }),
  });
  return db;
}

let pgModule: Promise<typeof pg> | undefined;

/** The pg driver, loaded once, with the type parsers every connection of Passgate expects. */
export function loadPg(): Promise<typeof pg> {
  pgModule ??= import('pg').then(({ default: driver }) => {
    // PostgreSQL returns bigint as a string; our bigints are millisecond timestamps that fit a double.
    driver.types.setTypeParser(driver.types.builtins.INT8, (value) => Number.parseInt(value, 10));
    return driver;
  });
  return pgModule;
}

function createPool(driver: typeof pg, url: string, connectTimeoutMs: number, statementTimeoutMs: number, report: (error: Error) => void): pg.Pool {
  const pool = new driver.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: connectTimeoutMs,
    // A dead peer (a failover, a cut network) is noticed by TCP rather than by the next query hanging.
    keepAlive: true,
    ...(statementTimeoutMs > 0
      ? {
          statement_timeout: statementTimeoutMs,
          // Only for a server that went silent: a live one ends the statement itself first (57014).
          query_timeout: statementTimeoutMs + 1000,
        }
      : {}),
  });
  // pg emits 'error' on an idle pooled client and on a client in use when its connection dies
  // (pg_terminate_backend, a restart, a failover). Unheard, that event kills the process; heard,
  // the broken client is dropped on release and the pool opens a new one for the next request.
  pool.on('error', report);
  pool.on('connect', (client) => {
    client.on('error', report);
    dropConnectionOnReadTimeout(client, statementTimeoutMs > 0 ? statementTimeoutMs + 1000 : 0);
  });
  refuseCheckoutWhenBudgetSpent(pool);
  return pool;
}

/**
 * After pg's query_timeout the statement is still outstanding on the connection, so every later
 * query on that pooled client would queue behind an answer that may never come (a silent peer, a
 * half-open socket after a partition). Dropping the connection makes pg-pool discard the client on
 * release and open a fresh one.
 *
 * Within a request (lib/database-budget.ts) a statement also gets no more than what is left of the
 * request's time for the database, and none once it is spent: a slow server that answers each
 * statement in time must not keep a request waiting for the sum of them.
 */
function dropConnectionOnReadTimeout(client: pg.PoolClient, readTimeoutMs: number): void {
  const target = client as unknown as { query: (...args: unknown[]) => unknown; connection: { stream: { destroy(): void } } };
  const query = target.query.bind(client);
  target.query = (...args: unknown[]) => {
    const left = databaseBudgetLeft();
    // Kysely's calls: (text, values), answered by a promise; pg's own callback form goes as it is.
    if (left !== undefined && typeof args[0] === 'string' && typeof args.at(-1) !== 'function') {
      if (left <= 0) return Promise.reject(budgetSpentError());
      if (readTimeoutMs === 0 || left < readTimeoutMs) args = [{ text: args[0], values: args[1], query_timeout: Math.ceil(left) }];
    }
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if (error instanceof Error && error.message === 'Query read timeout') target.connection.stream.destroy();
      throw error;
    });
  };
}

/** pg-pool's checkout, refused at once within a request whose time for the database is spent. */
function refuseCheckoutWhenBudgetSpent(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { connect: (...args: unknown[]) => unknown }).connect = (...args: unknown[]) => {
    const left = databaseBudgetLeft();
    if (args.length === 0 && left !== undefined && left <= 0) return Promise.reject(budgetSpentError());
    return connect(...args);
  };
}

/**
 * SQLite transactions begin IMMEDIATE, taking the write lock first. Kysely begins them DEFERRED:
 * such a transaction reads, then asks for the write lock, and when another process (the command
 * line beside the server, or the server beside the command line) has committed since that read,
 * SQLite refuses at once with SQLITE_BUSY_SNAPSHOT ('database is locked'), without the busy wait,
 * because waiting could not help. Every transaction here writes, so each waits its turn for the
 * lock up front (busy_timeout), as a single statement does, and then cannot be refused halfway.
 */
class ImmediateTransactionsDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateTransactionsSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateTransactionsDriver(this.settings);
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Opens the SQLite file and proves it writable now, so a read-only file or directory, a full disk
 * or a path that is not a database stops start-up with a message naming the file instead of
 * failing the first sign-in.
 */
function openSqlite(file: string, busyTimeoutMs: number): SqliteConnection {
  const where = file === ':memory:' ? file : resolve(file);
  let sqlite: SqliteConnection | undefined;
  try {
    if (file !== ':memory:') mkdirSync(dirname(where), { recursive: true });
    sqlite = new SQLite(file, { timeout: busyTimeoutMs });
    sqlite.pragma('journal_mode = WAL');
    // In WAL mode, NORMAL syncs at checkpoints rather than at every commit: a killed process loses
    // nothing (the WAL is in the OS's hands), only a power cut can lose the last commits, and the
    // file is never corrupted. FULL spent more of a sign-in in fsync than in everything else.
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${busyTimeoutMs}`);
    sqlite.exec('BEGIN IMMEDIATE');
    sqlite.exec('ROLLBACK');
    return sqlite;
  } catch (error) {
    sqlite?.close();
    const code = (error as { code?: unknown }).code;
    const reason = `${typeof code === 'string' ? `${code}: ` : ''}${(error as Error).message}`;
    throw new DatabaseUnavailableError(
      `The SQLite database file ${where} (DATABASE_URL) cannot be opened for writing (${reason}). ` +
        'Check that the file and its directory are writable by this user and that the disk has space.',
      { cause: error },
    );
  }
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Runs every pending migration; forward only. Throws when one fails. */
export async function migrateToLatest(db: Db, engine: DbEngine): Promise<string[]> {
  // On PostgreSQL the migration tables live in the connection's current schema; saying so keeps
  // Kysely from mistaking another schema's tables (one database, several schemas) for ours.
  const migrationTableSchema =
    engine === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  for (let attempt = 1; ; attempt += 1) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    // Before taking its lock, Kysely looks for its migration tables among every schema's tables
    // and columns. DDL running meanwhile (another schema dropped by another application or test
    // run, or a sibling instance migrating ours) can fail that catalogue read with "schema",
    // "relation" or "column does not exist": nothing has run yet (no results), so look again.
    // A migration that fails comes with results and is not retried.
    if (attempt < 5 && results === undefined && isCatalogueRace(error)) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/** invalid_schema_name, undefined_table, undefined_column, and the catalogue's own 'cache lookup failed'. */
const CATALOGUE_RACE_CODES = new Set(['3F000', '42P01', '42703', 'XX000']);

function isCatalogueRace(error: unknown): boolean {
  return CATALOGUE_RACE_CODES.has(String((error as { code?: unknown } | undefined)?.code));
}
