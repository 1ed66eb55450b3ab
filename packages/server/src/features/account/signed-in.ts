import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { authenticateAccount } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';

/**
 * Authentication of the signed-in calls as an `onRequest` hook: the bearer token is checked
 * (1101, 1102) before the body is read or validated, so nobody without a token gets a body parsed
 * or an answer about its fields. The handler then reads the user with `user(request)`.
 */
export function signedIn(ctx: AppContext) {
  const users = new WeakMap<FastifyRequest, UserRow>();
  return {
    async authenticate(request: FastifyRequest): Promise<void> {
      users.set(request, await authenticateAccount(ctx, request));
    },
    user(request: FastifyRequest): UserRow {
      const user = users.get(request);
      if (!user) throw new ApiError(ErrorCode.NotAuthenticated, 401);
      return user;
    },
  };
}
export type SignedIn = ReturnType<typeof signedIn>;
