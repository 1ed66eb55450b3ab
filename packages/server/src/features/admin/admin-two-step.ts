import { ErrorCode } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { createAdminRoleQueries } from './admin-roles.queries.ts';

/**
 * The 2-step verification an administrator may rely on: an authenticator app (TOTP, with its
 * backup codes) or a WebAuthn device. Codes sent by SMS or e-mail do not count: a SIM swap or a
 * mailbox is all it takes to read them.
 */

/** Whether the account has set up such a factor: an authenticator app or an active device. */
export async function hasStrongTwoStep(ctx: AppContext, user: UserRow): Promise<boolean> {
  if (user.enable_mfa && user.authenticator_type === 'totp' && user.totp_secret_enc) return true;
  const device = await ctx.db
    .selectFrom('webauthn_credentials')
    .select('id')
    .where('user_id', '=', user.id)
    .where('active', '=', 1)
    .executeTakeFirst();
  return device !== undefined;
}

/**
 * Whether the sign-in behind a token used such a factor, by its `amr` (mfa-login.service.ts and
 * passkey-login.service.ts write it): a device or passkey (`hwk`, which counts as both factors),
 * or a second step by the authenticator app or a backup code (`mfa` with `otp`; SMS and e-mail
 * codes are `sms` and `email`). Having a factor is not using it: a password sign-in of an account
 * whose only strong factor is a device asks for nothing more, and its `amr` is `pwd` alone.
 */
export function usedStrongTwoStep(amr: readonly string[]): boolean {
  return amr.includes('hwk') || (amr.includes('mfa') && amr.includes('otp'));
}

/**
 * The rule for an administrator's own factors, wherever they are changed (2-step set-up, method,
 * off, backup codes, devices): once the account has a strong factor, only a sign-in that used
 * one may change them (403/1307; the account area then signs in again with prompt=login).
 * Otherwise the password alone could add an authenticator app (or, with the mailbox, a device)
 * to an account whose device guards the admin console, and then open the console with it.
 * Accounts without an admin role, and an admin's very first strong factor, are not held.
 */
export async function requireStrongSignInForAdminFactors(ctx: AppContext, user: UserRow, amr: readonly string[]): Promise<void> {
  if (usedStrongTwoStep(amr) || !(await isAdministrator(ctx, user.id)) || !(await hasStrongTwoStep(ctx, user))) return;
  throw new ApiError(ErrorCode.SignInWithStrongTwoStep, 403);
}

/** Whether the user holds any admin role (their 2-step is then always asked: no remembered browser skips it). */
export async function isAdministrator(ctx: Pick<AppContext, 'db'>, userId: string): Promise<boolean> {
  const roles = await createAdminRoleQueries(ctx.db).rolesOf(userId);
  return roles.operator || roles.tenantAdminOf.length > 0;
}
