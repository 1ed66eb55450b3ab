/**
 * Whether an error means that a dependency (PostgreSQL, SQLite's file, Redis) is down, refusing,
 * silent or briefly unable to serve, rather than that Passgate itself is wrong. Such a failure is
 * the same for every request while it lasts and ends by itself, so it is answered 503 with
 * Retry-After (code 1294) and logged as a warning, not 500 with a stack trace per request.
 *
 * Judged by the shapes the drivers really throw (pg, pg-pool, better-sqlite3, ioredis, Node's
 * sockets): codes first, since messages are the drivers' and may change, then their exact messages.
 */

/** Node socket and DNS errors: the peer is unreachable, refused, reset or silent. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'ECONNABORTED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs that say the server (not the query) failed: 57014 statement timeout (our
 * statement_timeout fired), 57P01-57P03 shut down or not yet accepting connections (restart,
 * failover), 55P03 lock not available (lock_timeout), 25006 a write in a read-only session (a hot
 * standby the address points at after a failover, or default_transaction_read_only: what
 * SQLITE_READONLY is on SQLite), and class 53 below (insufficient resources: disk full, out of
 * memory, too many connections). 40001/40P01 are left out: they are the query's and the caller
 * retries them.
 */
const POSTGRES_STATES = new Set(['57014', '57P01', '57P02', '57P03', '57P04', '55P03', '25006']);

/** SQLite result codes (primary part: SQLITE_IOERR_WRITE is an SQLITE_IOERR) of a file that cannot serve now. */
const SQLITE_PRIMARY = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN']);

/** Exact messages of pg, pg-pool and ioredis errors that carry no code. */
const MESSAGES = [
  // pg / pg-pool
  /^Connection terminated( unexpectedly| due to connection timeout)?$/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  // lib/database-budget.ts: a request's statements together outlasted the read timeout
  /^the request's time for the database .* is spent$/,
  /^terminating connection due to administrator command$/,
  /^the database system is (starting up|shutting down|in recovery mode)$/,
  // ioredis
  /^Connection is closed\.$/,
  // lib/redis.ts: refused at once during an outage, not queued
  /^Redis \(REDIS_URL\) is unreachable: the command was not sent$/,
  /^Command timed out$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Reached the max retries per request limit/,
  /^Socket timeout\. Expecting data/,
  /^connect ETIMEDOUT$/,
  /^None of startup nodes is available$/,
  /^Cluster (is disconnected|isn't ready)/,
  // Redis replies while it cannot serve: loading after a restart, a replica during failover, its
  // maxmemory reached (noeviction), its snapshots failing to be written (a full disk: MISCONF).
  /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|OOM|MISCONF|NOREPLICAS) /,
];

const ERROR_NAMES = new Set(['MaxRetriesPerRequestError']);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function matchesItself(error: ErrorLike): boolean {
  if (typeof error.name === 'string' && ERROR_NAMES.has(error.name)) return true;
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code) {
    if (SOCKET_CODES.has(code)) return true;
    // Class 08: connection exception; class 53: insufficient resources (53100 disk full, 53200
    // out of memory, 53300 too many connections), whatever the detail.
    if (/^[0-9A-Z]{5}$/.test(code) && (code.startsWith('08') || code.startsWith('53') || POSTGRES_STATES.has(code))) return true;
    if (code.startsWith('SQLITE_') && SQLITE_PRIMARY.has(code.split('_').slice(0, 2).join('_'))) return true;
  }
  return typeof error.message === 'string' && MESSAGES.some((pattern) => pattern.test(error.message as string));
}

/**
 * True when `error`, or what it wraps (`cause`, an AggregateError's `errors`, as Node gives for a
 * host with several addresses), is a dependency failure. Depth-limited: a cycle of causes ends.
 */
export function isDependencyFailure(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const candidate = error as ErrorLike;
  if (matchesItself(candidate)) return true;
  if (isDependencyFailure(candidate.cause, depth + 1)) return true;
  return Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDependencyFailure(inner, depth + 1));
}

/** Seconds a client is asked to wait before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

/** A one-line description of a dependency failure for a warning (no stack, no connection string). */
export function describeDependencyFailure(error: unknown): { name?: string; code?: string; message?: string } {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { name, code, message } = error as ErrorLike;
  return {
    ...(typeof name === 'string' ? { name } : {}),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof message === 'string' ? { message: message.slice(0, 300) } : {}),
  };
}
