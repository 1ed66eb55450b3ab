import { ErrorCode } from '@passgate/contract';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { createLoginFailureQueries } from './login-failures.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { browserKeyHash, isBrowserKey } from '../known-browsers/new-browser-notice.ts';
import { createKnownBrowserQueries } from '../known-browsers/known-browsers.queries.ts';

const FIRST_LOCK_MS = 60_000;
const LONGEST_LOCK_MS = 60 * 60_000;

/**
 * How long a run of failures is remembered after its last one, for accounts and unknown usernames
 * alike (were they forgotten differently, waiting would tell them apart). Many times the longest
 * lock, so waiting for the count to be forgotten never buys more guesses than waiting out locks.
 */
export const FAILURE_MEMORY_MS = 24 * 60 * 60_000;

/**
 * When the account unlocks after `failures` consecutive failures, or null while it stays open.
 * From `threshold` failures on, the lock doubles with each further failure: 1, 2, 4… minutes, at
 * most an hour.
 */
export function lockoutAfterFailure(failures: number, threshold: number, now: number): number | null {
  if (failures < threshold) return null;
  const doublings = Math.min(failures - threshold, 10);
  return now + Math.min(FIRST_LOCK_MS * 2 ** doublings, LONGEST_LOCK_MS);
}

/**
 * 1302, saying when the lock ends (Retry-After, and `retryAfter` in the body) so that people are
 * told how long to wait. No secret: whoever is locked out learns it by trying, and unknown
 * usernames are locked and answered alike. In whole minutes, as locks last (and as the screen
 * says it): an account and an unknown username locked a moment apart get the same answer.
 */
export function accountLocked(lockedUntil: number, now = Date.now()): ApiError {
  const minutes = Math.max(1, Math.ceil((lockedUntil - now) / 60_000));
  return new ApiError(ErrorCode.UserBlocked, 403, undefined, undefined, minutes * 60);
}

/** A failure just counted: the run's length, and the lock it set (null when none). */
export interface CountedFailure {
  failures: number;
  lockedUntil: number | null;
}

type LockoutContext = Pick<AppContext, 'db' | 'keys' | 'users' | 'config'>;

/**
 * Counts a wrong password against an account (sign-in, social link): one atomic increment, then a
 * lock decided from the count it returned, which a concurrent, shorter lock cannot replace.
 */
export async function countFailedPassword(ctx: LockoutContext, userId: string, now: number): Promise<CountedFailure> {
  const failures = await ctx.users.recordFailedLogin(userId, now, now - FAILURE_MEMORY_MS);
  const lockedUntil = lockoutAfterFailure(failures, ctx.config.rateLimit.lockoutAfterFailures, now);
  if (lockedUntil) await ctx.users.extendLock(userId, lockedUntil, failures);
  // Here too, so that an account's failure and an unknown username's cost the same work.
  await createLoginFailureQueries(ctx.db).prune(now - FAILURE_MEMORY_MS);
  return { failures, lockedUntil };
}

/** The key of a username's counter: keyed, because people type passwords into the username field. */
function usernameKey(ctx: LockoutContext, tenantId: string, username: string): string {
  return ctx.keys.hmac('login-failures', `${tenantId}\u0000${username}`);
}

/** Until when sign-ins with a username that has no password to check are refused, or null. */
export async function usernameLockedUntil(ctx: LockoutContext, tenantId: string, username: string, now: number): Promise<number | null> {
  const lockedUntil = await createLoginFailureQueries(ctx.db).lockedUntil(tenantId, usernameKey(ctx, tenantId, username));
  return lockedUntil !== null && lockedUntil > now ? lockedUntil : null;
}

/**
 * Counts a sign-in with a username that has no password to check (no such account, or one that
 * signs in another way) exactly as `countFailedPassword` counts an account's, so the lockout and
 * its answers do not tell which usernames are accounts.
 */
export async function countFailedUsername(ctx: LockoutContext, tenantId: string, username: string, now: number): Promise<CountedFailure> {
  const queries = createLoginFailureQueries(ctx.db);
  const key = usernameKey(ctx, tenantId, username);
  const failures = await queries.recordFailure(tenantId, key, now, now - FAILURE_MEMORY_MS);
  const lockedUntil = lockoutAfterFailure(failures, ctx.config.rateLimit.lockoutAfterFailures, now);
  if (lockedUntil) await queries.extendLock(tenantId, key, lockedUntil, failures);
  await queries.prune(now - FAILURE_MEMORY_MS);
  return { failures, lockedUntil };
}

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Lifts an account's lock and forgets its run of failures (an admin's 'unlock'): the next wrong
 * password counts from 1 again. The locks of the account's trusted browsers go with it: the owner
 * who asked for the unlock is most likely at one of them, and would otherwise still wait out its
 * lock. Pass the caller's transaction to audit it with it.
 */
export async function unlockAccount(db: Executor, keys: LockoutContext['keys'], user: Pick<UserRow, 'id' | 'tenant_id'>, now: number): Promise<void> {
  await createUserQueries(db).update(user.id, { failed_login_count: 0, locked_until: null, last_failed_login_at: null, updated_at: now });
  await forgetTrustedBrowsersFailures(db, keys, user);
}

/** The key of a trusted browser's own run of failures in login_failures. */
function trustedBrowserFailureKey(keys: LockoutContext['keys'], userId: string, keyHash: string): string {
  return keys.hmac('trusted-browser-failures', `${userId}\u0000${keyHash}`);
}

/**
 * Forgets the failures and locks of every browser the account trusts (its known browsers), for
 * whatever lifts the account's own lock (an admin's unlock, any new password: a reset, a change in
 * the account area, one an operator sets). Pass the caller's
 * transaction to make it part of that change.
 */
export async function forgetTrustedBrowsersFailures(db: Executor, keys: LockoutContext['keys'], user: Pick<UserRow, 'id' | 'tenant_id'>): Promise<void> {
  const keyHashes = await createKnownBrowserQueries(db).keyHashes(user.id);
  await createLoginFailureQueries(db).forgetAll(user.tenant_id, keyHashes.map((keyHash) => trustedBrowserFailureKey(keys, user.id, keyHash)));
}

/**
 * A browser the account has signed in from before (its `passgate_browser` key is among the
 * account's known browsers), as the key of its own run of failures, or null for any other browser.
 *
 * Such a browser is not locked out by the account's lock: anyone who knows a username can keep that
 * lock on with a wrong password now and then, and the owner would never get in (OWASP's "device
 * cookies"). It has a lock of its own instead, counted and lengthened exactly like the account's,
 * so a stolen browser guesses no faster than anyone. Only a browser that proved the account's
 * password (or another sign-in) before holds such a key: other people's browsers, their own
 * accounts' keys included, count against the account as before.
 */
export async function trustedBrowser(ctx: LockoutContext, userId: string, browserKey: string | undefined): Promise<string | null> {
  if (!browserKey || !isBrowserKey(browserKey)) return null;
  const keyHash = browserKeyHash(ctx, browserKey);
  if (!(await createKnownBrowserQueries(ctx.db).isKnown(userId, keyHash))) return null;
  return trustedBrowserFailureKey(ctx.keys, userId, keyHash);
}

/** Until when a trusted browser's own lock refuses it, or null. */
export async function trustedBrowserLockedUntil(ctx: LockoutContext, tenantId: string, browser: string, now: number): Promise<number | null> {
  const lockedUntil = await createLoginFailureQueries(ctx.db).lockedUntil(tenantId, browser);
  return lockedUntil !== null && lockedUntil > now ? lockedUntil : null;
}

/** Counts a wrong password from a trusted browser against that browser alone, as countFailedPassword does for an account. */
export async function countFailedTrustedBrowser(ctx: LockoutContext, tenantId: string, browser: string, now: number): Promise<CountedFailure> {
  const queries = createLoginFailureQueries(ctx.db);
  const failures = await queries.recordFailure(tenantId, browser, now, now - FAILURE_MEMORY_MS);
  const lockedUntil = lockoutAfterFailure(failures, ctx.config.rateLimit.lockoutAfterFailures, now);
  if (lockedUntil) await queries.extendLock(tenantId, browser, lockedUntil, failures);
  return { failures, lockedUntil };
}

/** Forgets a trusted browser's failures once it has given the right password. */
export async function forgetTrustedBrowserFailures(ctx: LockoutContext, tenantId: string, browser: string): Promise<void> {
  await createLoginFailureQueries(ctx.db).forget(tenantId, browser);
}
