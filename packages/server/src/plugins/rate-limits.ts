import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ErrorCode } from '@passgate/contract';
import type { Config } from '../config.ts';
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
}

function limiter(redis: Redis | undefined, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  return redis
    ? new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${keyPrefix}`, points, duration, useRedisPackage: false })
    : new RateLimiterMemory({ keyPrefix, points, duration });
}

export function createRateLimits(config: Config, redis: Redis | undefined): RateLimits {
  return {
    loginPerIp: limiter(redis, 'login-ip', config.rateLimit.loginPerIp, 60),
    loginPerAccount: limiter(redis, 'login-account', config.rateLimit.lockoutAfterFailures * 4, 15 * 60),
  };
}

/** Spends one point of `key`'s budget; over budget answers 429 with the 'too many requests' code. */
export async function consume(rateLimiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await rateLimiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw new ApiError(ErrorCode.TooManyRequests, 429);
    throw error;
  }
}
