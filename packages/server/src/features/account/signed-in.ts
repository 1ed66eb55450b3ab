import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { authenticateAccessToken, type TokenHolder } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';
import { requireStrongSignInForAdminFactors } from '../admin/admin-two-step.ts';

/**
 * Authentication of the signed-in calls as an `onRequest` hook: the bearer token is checked
 * (1101, 1102) before the body is read or validated, so nobody without a token gets a body parsed
 * or an answer about its fields. The handler then reads the user with `user(request)`.
 * `authenticateForOwnFactors` is the hook of every route that changes the user's 2-step
 * verification or devices: it also applies the rule for an administrator's factors (403/1307).
 */
export function signedIn(ctx: AppContext) {
  const holders = new WeakMap<FastifyRequest, TokenHolder>();
  return {
    async authenticate(request: FastifyRequest): Promise<void> {
      holders.set(request, await authenticateAccessToken(ctx, request));
    },
    async authenticateForOwnFactors(request: FastifyRequest): Promise<void> {
      holders.set(request, await holderForOwnFactors(ctx, request));
    },
    user(request: FastifyRequest): UserRow {
      const holder = holders.get(request);
      if (!holder) throw new ApiError(ErrorCode.NotAuthenticated, 401);
      return holder.user;
    },
  };
}
export type SignedIn = ReturnType<typeof signedIn>;

async function holderForOwnFactors(ctx: AppContext, request: FastifyRequest): Promise<TokenHolder> {
  const holder = await authenticateAccessToken(ctx, request);
  await requireStrongSignInForAdminFactors(ctx, holder.user, holder.amr);
  return holder;
}

/** For a route that authenticates only some of its bodies itself (the device challenges): the same as `authenticateForOwnFactors`. */
export async function authenticateForOwnFactors(ctx: AppContext, request: FastifyRequest): Promise<UserRow> {
  return (await holderForOwnFactors(ctx, request)).user;
}
