import { isIPv4, isIPv6 } from 'node:net';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ErrorCode, errorMessages } from '@passgate/contract';
import type { Config } from '../config.ts';
import type { ServerKeys } from '../lib/server-keys.ts';
import { embeddedIpv4, ipv6Groups } from '../lib/public-fetch.ts';
import { ApiError } from './errors.ts';

/**
 * Request budgets for endpoints that check a secret or send a message: in memory on one instance,
 * in Redis (shared by every instance) when REDIS_URL is set.
 */
export interface RateLimits {
  /** Sign-in attempts per client IP address, per minute. */
  loginPerIp: RateLimiterAbstract;
  /** Sign-in attempts per account (tenant and username), per 15 minutes. */
  loginPerAccount: RateLimiterAbstract;
  /** One code sent per destination and purpose per 60 seconds (the resend cooldown). */
  codeResend: RateLimiterAbstract;
  /** Codes sent per client IP address per hour, so nobody mails or texts the world from one address. */
  codeSendPerIp: RateLimiterAbstract;
  /** Attempts at a one-time code per client IP address per 15 minutes. */
  codeCheckPerIp: RateLimiterAbstract;
  /**
   * Wrong codes per account per 15 minutes (2-step sign-in, password reset, activation), whatever
   * the address: each MFA token or code allows 5 tries, but new ones come with every sign-in or
   * request, and from many addresses the per-IP budget does not stop a guesser.
   */
  codeCheckPerAccount: RateLimiterAbstract;
}

/** Wrong one-time codes one account may take in 15 minutes, from every address together. */
export const CODE_CHECKS_PER_ACCOUNT_PER_15_MIN = 10;

/** SPEC.md section 9: a code may be sent again 60 seconds after the last one. */
export const RESEND_COOLDOWN_SECONDS = 60;

function limiter(redis: Redis | undefined, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `rl:${keyPrefix}`,
    points,
    duration,
    useRedisPackage: false,
    // While Redis is down or reconnecting, each instance counts in its own memory: budgets stay
    // enforced (per instance, so at most instances × points) and a sign-in is not refused for a
    // counter store it does not need. Not-ready means no wait for the command timeout either.
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true,
  });
}

/**
 * What a per-IP budget counts by: an IPv4 address as it is (also when written as IPv6, ::ffff:a.b.c.d),
 * an IPv6 address by its /64 network. One subscriber, one cloud machine, gets at least a /64 and
 * may pick any address in it for each request, so counting whole IPv6 addresses would give them
 * 2^64 budgets. Keys that are not addresses (an account's, `account:…`) are kept as they are.
 */
export function addressBudgetKey(key: string): string {
  const bare = key.replace(/%.*$/, '');
  if (isIPv4(bare) || !isIPv6(bare)) return key;
  const embedded = embeddedIpv4(bare);
  if (embedded !== null) return embedded;
  return `${ipv6Groups(bare).slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/** The methods of a limiter that take the key first. */
const KEYED_METHODS = new Set(['consume', 'penalty', 'reward', 'block', 'get', 'set', 'delete']);

/**
 * A limiter whose keys are client addresses: every call counts by `addressBudgetKey`, whichever
 * route makes it, so no route can forget to group an IPv6 network.
 */
function perAddress(inner: RateLimiterAbstract): RateLimiterAbstract {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || !KEYED_METHODS.has(property) || typeof value !== 'function') return value;
      return (key: string | number, ...rest: unknown[]) => (value as (...args: unknown[]) => unknown).call(target, addressBudgetKey(String(key)), ...rest);
    },
  });
}

export function createRateLimits(config: Config, redis: Redis | undefined): RateLimits {
  return {
    loginPerIp: perAddress(limiter(redis, 'login-ip', config.rateLimit.loginPerIp, 60)),
    loginPerAccount: limiter(redis, 'login-account', config.rateLimit.lockoutAfterFailures * 4, 15 * 60),
    codeResend: limiter(redis, 'code-resend', 1, RESEND_COOLDOWN_SECONDS),
    codeSendPerIp: perAddress(limiter(redis, 'code-send-ip', config.rateLimit.codeSendsPerIpPerHour, 3600)),
    codeCheckPerIp: perAddress(limiter(redis, 'code-check-ip', config.rateLimit.codeChecksPerIpPer15Min, 15 * 60)),
    codeCheckPerAccount: limiter(redis, 'code-check-account', CODE_CHECKS_PER_ACCOUNT_PER_15_MIN, 15 * 60),
  };
}

/**
 * The key of a per-account budget: a keyed hash, since what is typed as a username is sometimes a
 * password, and budgets may live in Redis.
 */
export function accountBudgetKey(keys: ServerKeys, ...parts: string[]): string {
  return keys.hmac('rate-limit-account', parts.join('\u0000'));
}

/**
 * Spends one point of an account's budget (`rateLimiter`) for a try at a secret, and answers how to
 * give it back when the secret was right: only wrong tries count, but the point is taken first, so
 * tries racing each other cannot pass the budget together.
 */
export async function takeTry(rateLimiter: RateLimiterAbstract, key: string): Promise<() => Promise<void>> {
  await consume(rateLimiter, key);
  return async () => {
    await rateLimiter.reward(key, 1).catch(() => undefined);
  };
}

/**
 * Spends one point of `key`'s budget; over budget answers 429 with the 'too many requests' code and
 * the wait (Retry-After and `retryAfter`), so screens can say how long rather than a bare 'later'
 * and, for a resend refused within its 60 s, count down to the next one.
 */
export async function consume(rateLimiter: RateLimiterAbstract, key: string, code: ErrorCode = ErrorCode.TooManyRequests): Promise<void> {
  try {
    await rateLimiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) {
      const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw new ApiError(code, 429, undefined, `${errorMessages[code]} (try again in ${seconds} s)`, seconds);
    }
    throw error;
  }
}
