import { ErrorCode, type CodeSentResponse, type ResetPasswordBody, type SendCodeBody } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { hashSecret } from '../../lib/passwords.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { isRecentlyUsedPassword, unmetPasswordText } from '../users/password-rules.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { requireCapability, requireTenantSwitch, resolveFlowClient } from '../login-flow/flow-client.ts';
import { forgetTrustedBrowsersFailures } from '../login-flow/lockout.ts';
import { checkUsername, usernameKinds, type VisitorMeta } from '../login-flow/visitor-input.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { passwordPolicyError } from '../registration/registration.service.ts';
import { refuseCommonPassword } from '../users/common-passwords.ts';

/**
 * POST /api/v1/password/recover and POST /api/v1/password/reset: a recovery code for an active
 * account with a password, then a new password with that code. Recover answers the same whether
 * or not the account exists; its cooldown applies to every username alike.
 */
export function createPasswordRecoveryService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  /** The guards both calls share: tenant switch (1303), capability (1301), username format (1016/1015, sign-in kinds). */
  async function guard(clientId: string, rawUsername: string) {
    const flow = await resolveFlowClient(ctx, clientId);
    requireTenantSwitch(flow, 'resetPasswordAllowed');
    requireCapability(flow, 'password:reset');
    const { username, kind } = checkUsername(ctx.log, flow, rawUsername, usernameKinds(flow, 'login'));
    const target = { tenantId: flow.tenant.id, purpose: 'recovery', destination: username } as const;
    return { flow, username, kind, target };
  }

  return {
    async recover(body: SendCodeBody, meta: VisitorMeta): Promise<CodeSentResponse> {
      const { flow, username, kind, target } = await guard(body.clientId, body.username);
      await ctx.recaptcha.verify(flow.client, body.recaptchaToken, meta.ip);
      // Before the account is looked up: the cooldown and its answer do not tell who has an account.
      await codes.reserveSend(target, meta.ip);
      const user = await ctx.users.findByUsername(flow.tenant.id, username);
      // Accounts registered with a password, including one whose password was dropped at an
      // activation in another browser (registration/registrant-browser.ts); not those that sign in
      // by a code or a social account only.
      if (user && user.status === 'active' && (user.password_hash || user.registration_method === 'password')) {
        const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: user.id };
        await codes.sendReserved({ ...target, userId: user.id }, {
          deliver: (code) => deliverCode(ctx, { kind: 'recovery', usernameKind: kind, to: username, locale: messageLocale(user.locale, meta.locale), tenant: flow.tenant, name: user.name, code }, event),
        });
        await ctx.audit.record({ ...event, type: 'password.recovery_requested', details: { channel: kind === 'email' ? 'email' : 'sms' } });
      } else {
        // A code nobody receives: a wrong code for this username then answers 1042, and five of
        // them 1026, exactly as for an account, so the reset step does not tell who has one.
        await codes.sendReserved({ ...target, userId: null }, { deliver: async () => {} });
      }
      return { resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    async reset(body: ResetPasswordBody, meta: VisitorMeta): Promise<{ ok: true }> {
      const { flow, username, target } = await guard(body.clientId, body.username);
      const tenant = flow.tenant;
      const needs = unmetPasswordText(body.password, tenant.passwordPolicy);
      if (needs) throw passwordPolicyError(needs);
      await refuseCommonPassword(body.password);
      await ctx.recaptcha.verify(flow.client, body.recaptchaToken, meta.ip);
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);

      const user = await ctx.users.findByUsername(tenant.id, username);
      const event = { tenantId: tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: user?.id ?? null };
      // Kept open until the new password is accepted, so a refused password does not cost the code.
      const check = await codes.verify(target, body.code, { keep: true });
      if (check.result === 'wrong') {
        await ctx.audit.record({ ...event, type: 'code.failed', details: { purpose: 'recovery' } });
        throw new ApiError(ErrorCode.RecoveryCodeInvalid, 400, 'code');
      }
      if (check.result === 'expired' || !user || user.status !== 'active' || check.userId !== user.id) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      }
      // Only after the code: without it, 1031 would tell a stranger the account's current password.
      if (await isRecentlyUsedPassword(ctx.users, user, body.password, tenant.passwordHistorySize)) {
        throw new ApiError(ErrorCode.PasswordReused, 400, 'password');
      }

      const passwordHash = await hashSecret(body.password);
      const now = Date.now();
      const loggedOut = await inTransaction(ctx.db, async (trx) => {
        if (!(await codes.consume(check.codeId, trx))) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
        const users = createUserQueries(trx);
        await users.replacePassword(user.id, passwordHash, now);
        // replacePassword lifts the account's lock; the owner's own browsers, locked by their own
        // wrong passwords, are let in with the new password alike (lockout.ts, trustedBrowser).
        await forgetTrustedBrowsersFailures(trx, ctx.keys, user);
        await createAuditQueries(trx).record({ ...event, type: 'password.reset' }, now);
        // Whoever knew the old password is signed out everywhere: sessions, grants and tokens go,
        // and the relying parties signed in through those sessions are told (back-channel logout).
        const notice = await ctx.backchannelLogout.noticeFor(user.id, trx);
        await ctx.oidcStore.forgetAccount(user.id, trx);
        return notice;
      });
      await ctx.oidcStore.forgetAccount(user.id);
      void ctx.backchannelLogout.send(loggedOut);
      return { ok: true };
    },
  };
}
export type PasswordRecoveryService = ReturnType<typeof createPasswordRecoveryService>;
