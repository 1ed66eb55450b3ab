import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError } from './errors.ts';

export const ACCOUNT_CLIENT_ID = 'account';

/**
 * The signed-in user behind a bearer access token. Only tokens issued to the `account` client are
 * accepted: a relying party's token must never change or delete a user's account.
 */
export async function authenticateAccount(ctx: AppContext, request: FastifyRequest): Promise<UserRow> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(ErrorCode.MissingAuthorization, 401);
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
  if (!match?.[1]) throw new ApiError(ErrorCode.NotAuthenticated, 401);
  const token = await ctx.provider.AccessToken.find(match[1]);
  if (!token || token.isExpired || token.clientId !== ACCOUNT_CLIENT_ID || !token.accountId) {
    throw new ApiError(ErrorCode.NotAuthenticated, 401);
  }
  const user = await ctx.users.findById(token.accountId);
  if (!user || user.status !== 'active') throw new ApiError(ErrorCode.NotAuthenticated, 401);
  return user;
}
