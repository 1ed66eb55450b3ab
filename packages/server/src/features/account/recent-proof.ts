import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { acceptedToken } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { recheckPassword } from './password-recheck.ts';

/** How long after signing in the account area may move the account's contact details without the password. */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

/**
 * Proof that the person at the keyboard is the account's owner, beyond the bearer token: the
 * password (the shared re-check budget), or a sign-in in the last RECENT_SIGN_IN_SECONDS (the
 * provider session behind the token; a silent token renewal does not count). A token stolen from
 * a browser could otherwise move the e-mail address or phone number somewhere else, and with it
 * password recovery and 2-step codes: the whole account.
 * - 1001 (400, field password): the sign-in is older and the account has a password.
 * - 1100 (403): the sign-in is older and the account has no password: the user signs in again
 *   (prompt=login). Not 401, which says the token itself is no good.
 */
export async function requireRecentProof(ctx: AppContext, request: FastifyRequest, user: UserRow, password: string | undefined, meta: VisitorMeta): Promise<void> {
  if (password !== undefined) {
    if (!user.password_hash) throw new ApiError(ErrorCode.InvalidField, 400, 'password', 'This account has no password: sign in again instead');
    await recheckPassword(ctx, { ...user, password_hash: user.password_hash }, password, meta);
    return;
  }
  if (await signedInRecently(ctx, request, user)) return;
  if (user.password_hash) throw new ApiError(ErrorCode.RequiredField, 400, 'password', 'Enter your password to change your contact details');
  throw new ApiError(ErrorCode.Unauthorized, 403, undefined, 'Sign in again to change your contact details');
}

async function signedInRecently(ctx: AppContext, request: FastifyRequest, user: UserRow): Promise<boolean> {
  const { sessionUid } = acceptedToken(request);
  if (!sessionUid) return false;
  const session = await ctx.provider.Session.findByUid(sessionUid);
  if (!session || session.accountId !== user.id || !session.loginTs) return false;
  return Math.floor(Date.now() / 1000) - session.loginTs <= RECENT_SIGN_IN_SECONDS;
}
