import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared; the application has a few hundred at most. */
const MAX_STATEMENTS = 500;

/**
 * Kysely prepares every query anew; preparing costs SQLite about as much as running a simple
 * query. The same few hundred texts come back on every request (the provider's adapter, the
 * sign-in path), so each is prepared once and kept, least recently used first out. Sharing a
 * statement is safe: better-sqlite3 runs one at a time, and Kysely holds its single connection for
 * the whole of a query (a streamed one included), so no statement is used twice at once. SQLite
 * re-prepares a kept statement by itself after a schema change (the migrations).
 */
export function withStatementCache(sqlite: SQLite.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        // Map order is insertion order: taking it out and back in marks it the most recent.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= max) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement as unknown as SqliteStatement;
    },
  };
}
