import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { maskSecretParams } from './mask-url.ts';

/**
 * The Redis client. Redis holds only short-lived artifacts and counters (DESIGN.md section 4), so
 * an outage must cost a fast 503 on what needs it, never a hang, a crash or a stack trace on stderr.
 */

type RedisConfig = Pick<Config, 'redisKeyPrefix' | 'redisConnectTimeoutMs' | 'redisCommandTimeoutMs'>;

/** The URL fit for a log line: the password (also as ?password=, which ioredis reads) and a lone username, which may be a token, masked. */
export function maskRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    maskSecretParams(parsed);
    if (parsed.password) parsed.password = '***';
    else if (parsed.username) parsed.username = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL (unparsable)';
  }
}

/** Capped exponential backoff, so a Redis that comes back is used again without a restart. */
export function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 6), 3000);
}

/** The client, its module loaded on first use: a process without REDIS_URL never pays for it. */
export async function createRedisClient(url: string, config: RedisConfig, log: Pick<Logger, 'warn' | 'info'>): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    keyPrefix: config.redisKeyPrefix,
    connectTimeout: config.redisConnectTimeoutMs,
    // Bounds a command's whole life, time queued during a reconnect included: the caller answers 503.
    commandTimeout: config.redisCommandTimeoutMs,
    // A peer that accepts and stays silent: the socket is dropped and a reconnect tried, instead of
    // every later command waiting its full timeout on a dead connection.
    socketTimeout: config.redisCommandTimeoutMs,
    // The offline queue rides out a restart of a few hundred milliseconds; the commandTimeout above
    // and one retry keep it from holding requests for longer during a real outage.
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
  });
  const where = maskRedisUrl(url);
  let downSince: number | undefined;
  let lastError: Error | undefined;
  // Without a listener ioredis prints every failed reconnect with its stack; one line per outage is enough.
  redis.on('error', (error: Error) => {
    lastError = error;
    if (downSince !== undefined) return;
    downSince = Date.now();
    log.warn({ redis: where, err: { message: error.message, code: (error as NodeJS.ErrnoException).code } }, 'Redis (REDIS_URL) unreachable; requests that need it answer 503 until it is back');
  });
  redis.on('ready', () => {
    if (downSince === undefined) return;
    downSince = undefined;
    log.info({ redis: where }, 'Redis (REDIS_URL) reachable again');
  });
  failFastDuringOutage(redis, () => (downSince === undefined ? undefined : { since: downSince, cause: lastError }), config.redisCommandTimeoutMs);
  return redis;
}

/** What a command refused during an outage fails with (a dependency failure: 503, Retry-After). */
export const REDIS_OUTAGE_MESSAGE = 'Redis (REDIS_URL) is unreachable: the command was not sent';

/**
 * The offline queue rides out a restart; an outage that has lasted longer than a command may wait
 * is not a restart. From then until the client reconnects, a command fails at once instead of
 * waiting its whole commandTimeout in the queue: every request that needs Redis got its 503 after
 * 2 s (a refused connection reconnects every 3 s at most), now it gets it at once. Commands of the
 * handshake and ready check (status 'connect') and of a ready client go through as always.
 */
function failFastDuringOutage(redis: Redis, outage: () => { since: number; cause: Error | undefined } | undefined, graceMs: number): void {
  type Send = Redis['sendCommand'];
  const send: Send = redis.sendCommand.bind(redis);
  const reconnecting = new Set(['connecting', 'reconnecting', 'close']);
  redis.sendCommand = ((command: Parameters<Send>[0], ...rest: unknown[]) => {
    const down = outage();
    if (down && reconnecting.has(redis.status) && Date.now() - down.since >= graceMs) {
      // The last connection error goes with it, for a start-up failure to say why.
      command.reject(new Error(REDIS_OUTAGE_MESSAGE, { cause: down.cause }));
      return command.promise;
    }
    return (send as (...args: unknown[]) => ReturnType<Send>)(command, ...rest);
  }) as Send;
}

/**
 * Resolves once Redis answers; retries (the client reconnects by itself) until `timeoutMs`, then
 * rejects with a message naming REDIS_URL, password masked, and closes the client so the process
 * can exit: Passgate never listens with a Redis it cannot reach at start.
 */
export async function waitForRedis(redis: Redis, url: string, timeoutMs: number, log: Pick<Logger, 'warn'>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const database = redis.options.db ?? 0;
  let warned = false;
  for (;;) {
    try {
      await redis.ping();
      // ioredis reports a SELECT that Redis refuses (a database index past its `databases`) only as
      // an 'error' event and goes on in database 0, among whatever else lives there: so it is asked
      // again here, where a refusal can stop start-up.
      if (database !== 0) await redis.select(database);
      return;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      const reason = error instanceof Error ? `${error.message}${cause}` : String(error);
      if (error instanceof Error && error.name === 'ReplyError' && /^ERR /.test(error.message)) {
        redis.disconnect();
        const failure = new Error(`REDIS_URL=${maskRedisUrl(url)} names database ${database}, which Redis refuses: ${reason}`);
        failure.stack = failure.message;
        throw failure;
      }
      if (Date.now() >= deadline) {
        redis.disconnect();
        const failure = new Error(`Cannot reach Redis at REDIS_URL=${maskRedisUrl(url)} within STARTUP_TIMEOUT_MS (${timeoutMs} ms): ${reason}`);
        // The start-up failure is printed whole; the stack of a ping adds nothing to it.
        failure.stack = failure.message;
        throw failure;
      }
      if (!warned) log.warn(`cannot reach Redis at REDIS_URL=${maskRedisUrl(url)} (${reason}); retrying for up to ${Math.ceil((deadline - Date.now()) / 1000)} s`);
      warned = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(0, deadline - Date.now()))));
    }
  }
}
