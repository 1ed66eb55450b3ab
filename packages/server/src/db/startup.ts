import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { describeDependencyFailure } from '../lib/dependency-errors.ts';
import { maskConnectionUrl, NOT_A_VALID_URL } from '../lib/mask-url.ts';
import { createDatabase, databaseEngine, DatabaseUnavailableError, migrateToLatest, type Db } from './database.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function reasonOf(error: unknown): string {
  const { code, message } = describeDependencyFailure(error);
  return [code, message].filter(Boolean).join(': ') || 'unknown error';
}

/**
 * The database, reachable and migrated, or a DatabaseUnavailableError naming DATABASE_URL
 * (password masked). A PostgreSQL that is not there yet (starting alongside Passgate, failing
 * over, not yet created) is retried until STARTUP_TIMEOUT_MS, so an orchestrator's restart order
 * does not matter, yet a wrong setting still ends in a clear non-zero exit rather than a server
 * that listens and fails every request.
 */
export async function openDatabase(config: Config, log: Logger): Promise<Db> {
  const engine = databaseEngine(config.databaseUrl);
  const db = createDatabase(config.databaseUrl, {
    ...config.database,
    onConnectionError: (error) => log.warn({ dependencyError: describeDependencyFailure(error) }, 'a PostgreSQL connection failed; the pool opens a new one'),
  });
  try {
    if (engine === 'postgres') await waitUntilReachable(db, config, log);
    await migrateToLatest(db, engine);
    return db;
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
}

async function waitUntilReachable(db: Db, config: Config, log: Logger): Promise<void> {
  const where = `DATABASE_URL=${maskConnectionUrl(config.databaseUrl)}`;
  const deadline = Date.now() + config.startupTimeoutMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await sql`select 1`.execute(db);
      if (attempt > 1) log.info(`the database at ${where} is reachable now`);
      return;
    } catch (error) {
      // A connection string the driver cannot parse never gets better: say so now rather than
      // retrying it as an unreachable server for STARTUP_TIMEOUT_MS.
      if ((error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL') {
        throw new DatabaseUnavailableError(
          `DATABASE_URL=${maskConnectionUrl(config.databaseUrl)} ${NOT_A_VALID_URL}`,
          { cause: error },
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DatabaseUnavailableError(`Cannot reach the database at ${where} within STARTUP_TIMEOUT_MS (${config.startupTimeoutMs} ms): ${reasonOf(error)}`, {
          cause: error,
        });
      }
      log.warn(`cannot reach the database at ${where} (${reasonOf(error)}); retrying for up to ${Math.ceil(left / 1000)} s more`);
      await sleep(Math.min(1000 * attempt, 5000, left));
    }
  }
}

/**
 * What start-up prints when it gives up: one line for the operator (the database's own message when
 * it is one), never a password; the stack only when LOG_LEVEL is debug or trace.
 */
export function startupFailureMessage(error: unknown, config: Pick<Config, 'databaseUrl' | 'logLevel'>): string {
  const masked = (text: string) => text.split(config.databaseUrl).join(maskConnectionUrl(config.databaseUrl));
  const stack = (config.logLevel === 'debug' || config.logLevel === 'trace') && error instanceof Error && error.stack ? `\n${masked(error.stack)}` : '';
  if (error instanceof DatabaseUnavailableError) return error.message + stack;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    return `The SQLite database of DATABASE_URL=${config.databaseUrl} failed during start-up (${reasonOf(error)}): check that the file is writable and the disk has space.${stack}`;
  }
  const text = error instanceof Error ? error.message || error.name : String(error);
  return `Passgate could not start: ${masked(text)}${stack}`;
}
