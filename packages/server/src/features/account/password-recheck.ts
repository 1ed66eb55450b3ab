import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { verifySecret } from '../../lib/passwords.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume } from '../../plugins/rate-limits.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';

/**
 * The signed-in password re-check (2-step settings, account deletion): 1017 (400, field password)
 * when wrong. Every re-check spends one budget per account, shared by all of them, and the per-IP
 * code-check budget, so no signed-in call is a password oracle (1290 once spent).
 */
export async function recheckPassword(ctx: Pick<AppContext, 'rateLimits'>, user: UserRow & { password_hash: string }, password: string, meta: VisitorMeta): Promise<void> {
  await consume(ctx.rateLimits.loginPerAccount, `me-password:${user.id}`);
  await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
  if (!(await verifySecret(user.password_hash, password))) throw new ApiError(ErrorCode.WrongCredentials, 400, 'password');
}
