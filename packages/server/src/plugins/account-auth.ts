import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { ApiError } from './errors.ts';

export const ACCOUNT_CLIENT_ID = 'account';

/**
 * The signed-in user behind a bearer access token. Only tokens issued to the `account` client are
 * accepted: a relying party's token must never change or delete a user's account. The admin API
 * asks for its own client's tokens (`admin-console`) the same way.
 */
export async function authenticateAccount(ctx: AppContext, request: FastifyRequest, clientId: string = ACCOUNT_CLIENT_ID): Promise<UserRow> {
  return (await authenticateAccessToken(ctx, request, clientId)).user;
}

/** The signed-in user and what the sign-in behind the token proved (RFC 8176 `amr` values; empty when the token does not say). */
export interface TokenHolder {
  user: UserRow;
  amr: string[];
}

/** `authenticateAccount`, with the token's `amr` (provider.ts keeps it with each access token). */
export async function authenticateAccessToken(ctx: AppContext, request: FastifyRequest, clientId: string = ACCOUNT_CLIENT_ID): Promise<TokenHolder> {
  const header = request.headers.authorization;
  if (!header) throw new ApiError(ErrorCode.MissingAuthorization, 401);
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(header);
  if (!match?.[1]) throw new ApiError(ErrorCode.NotAuthenticated, 401);
  const token = await ctx.provider.AccessToken.find(match[1]);
  if (!token || token.isExpired || token.clientId !== clientId || !token.accountId) {
    throw new ApiError(ErrorCode.NotAuthenticated, 401);
  }
  // Deleting a grant does not delete the access tokens issued under it, and a token issued with
  // offline_access is not bound to the provider session either. The grant is what says the user
  // still authorises this client, so it is checked on every call, as the provider's own userinfo
  // endpoint does: present, unexpired, and of this very client and account.
  const grant = token.grantId ? await ctx.provider.Grant.find(token.grantId, { ignoreExpiration: true }) : undefined;
  if (!grant || grant.isExpired || grant.clientId !== token.clientId || grant.accountId !== token.accountId) {
    throw new ApiError(ErrorCode.NotAuthenticated, 401);
  }
  const user = await ctx.users.findById(token.accountId);
  if (!user || user.status !== 'active') throw new ApiError(ErrorCode.NotAuthenticated, 401);
  const amr = (token.extra as { amr?: unknown } | undefined)?.amr;
  return { user, amr: Array.isArray(amr) ? amr.filter((value): value is string => typeof value === 'string') : [] };
}
