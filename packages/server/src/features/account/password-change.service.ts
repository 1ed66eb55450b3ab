import { ErrorCode, type PasswordChangeBody, type PasswordChangeResponse } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { hashSecret } from '../../lib/passwords.ts';
import { ApiError } from '../../plugins/errors.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { passwordChangedNotice } from '../../messaging/templates/security-notices.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { isRecentlyUsedPassword, unmetPasswordText } from '../users/password-rules.ts';
import { refuseCommonPassword } from '../users/common-passwords.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { createActiveSessionsService } from '../sessions/active-sessions.service.ts';
import { deliverNotice, inBackground } from '../known-browsers/notice-delivery.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { forgetTrustedBrowsersFailures } from '../login-flow/lockout.ts';
import { recheckPassword } from './password-recheck.ts';

/** The access token a signed-in call came with: the provider session it belongs to and its grant. */
export interface CallingToken {
  sessionUid: string | undefined;
  grantId: string | undefined;
}

interface StoredSession {
  authorizations?: Record<string, { grantId?: string }>;
}

/**
 * POST /api/v1/me/password: the signed-in user changes their password. Checks that need no secret
 * come first (the tenant's policy, 1002; the breached-password list, 1104), then the current
 * password within the shared re-check budget (1017, 1290), then the history (1031, only once the
 * caller has proved the current password, as recovery does after its code). The new password is
 * stored through users.replacePassword, the one place passwords change (which also forgets the
 * browsers remembered for 2-step verification). Whoever knew the old password loses what it gave
 * them: every other session is signed out (as 'Sign out all other sessions' does) and every grant
 * outside this session is revoked with its tokens; the session making the call stays. Then the
 * owner is told, in the background.
 */
export function createPasswordChangeService(ctx: AppContext) {
  const sessions = createActiveSessionsService(ctx);

  /** Revokes every grant of the account (and the tokens under it) except those of the calling session and token. */
  async function revokeGrantsOutside(user: UserRow, token: CallingToken): Promise<void> {
    const kept = new Set<string>(token.grantId ? [token.grantId] : []);
    if (token.sessionUid) {
      const row = await ctx.db
        .selectFrom('oidc_payloads')
        .select('payload')
        .where('model', '=', 'Session')
        .where('uid', '=', token.sessionUid)
        .where('account_id', '=', user.id)
        .executeTakeFirst();
      const session = row ? (JSON.parse(row.payload) as StoredSession) : {};
      for (const authorization of Object.values(session.authorizations ?? {})) if (authorization.grantId) kept.add(authorization.grantId);
    }
    const grants = await ctx.db.selectFrom('oidc_payloads').select('id').where('model', '=', 'Grant').where('account_id', '=', user.id).execute();
    const revoked = grants.map((g) => g.id).filter((id) => !kept.has(id));
    await ctx.oidcStore.revokeGrants(revoked);
  }

  return {
    async change(user: UserRow, body: PasswordChangeBody, token: CallingToken, meta: VisitorMeta): Promise<PasswordChangeResponse> {
      if (!user.password_hash) throw new ApiError(ErrorCode.NoPasswordToChange, 400);
      const tenant = await ctx.tenants.findById(user.tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.NotAuthenticated, 401);

      const needs = unmetPasswordText(body.newPassword, tenant.passwordPolicy);
      if (needs) throw new ApiError(ErrorCode.InvalidField, 400, 'new_password', `The password does not meet the password policy: it needs ${needs}`);
      await refuseCommonPassword(body.newPassword, 'new_password');
      try {
        await recheckPassword(ctx, { ...user, password_hash: user.password_hash }, body.currentPassword, meta);
      } catch (error) {
        if (error instanceof ApiError && error.code === ErrorCode.WrongCredentials) {
          throw new ApiError(ErrorCode.WrongCredentials, 400, 'current_password');
        }
        throw error;
      }
      if (await isRecentlyUsedPassword(ctx.users, user, body.newPassword, tenant.passwordHistorySize)) {
        throw new ApiError(ErrorCode.PasswordReused, 400, 'new_password');
      }

      const passwordHash = await hashSecret(body.newPassword);
      const now = Date.now();
      await inTransaction(ctx.db, async (trx) => {
        await createUserQueries(trx).replacePassword(user.id, passwordHash, now);
        // replacePassword lifts the account's lock; its trusted browsers' own locks go with it.
        await forgetTrustedBrowsersFailures(trx, ctx.keys, user);
        await createAuditQueries(trx).record({ type: 'password.changed', tenantId: user.tenant_id, userId: user.id, ip: meta.ip, userAgent: meta.userAgent ?? null, details: { by: 'user' } }, now);
      });

      const otherSessionsSignedOut = await sessions.signOutOthers(user, token.sessionUid, meta);
      await revokeGrantsOutside(user, token);

      const message = passwordChangedNotice({ locale: messageLocale(user.locale, meta.locale), brand: tenant.brandName || tenant.name, name: user.name, at: now });
      inBackground(ctx, 'the password-changed notice', () => deliverNotice(ctx, user, 'password-changed', message));
      return { ok: true, otherSessionsSignedOut };
    },
  };
}
export type PasswordChangeService = ReturnType<typeof createPasswordChangeService>;
