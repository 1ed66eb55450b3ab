import {
  ErrorCode,
  normalizeUsername,
  type CodeSentResponse,
  type ConfirmBody,
  type ConfirmResponse,
  type SendCodeBody,
  type UsernameKind,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { resolveFlowClient, type FlowClient } from '../login-flow/flow-client.ts';
import { completeLogin, interactionClientId, loadInteraction, requireHeldInteraction } from '../login-flow/interactions.ts';
import { checkUsername, usernameKinds, type VisitorMeta } from '../login-flow/visitor-input.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { typedByRegistrant } from './registrant-browser.ts';

const kindOf = (username: string): UsernameKind => (username.includes('@') ? 'email' : 'phone');

/**
 * POST /api/v1/users/confirm and POST /api/v1/users/activation/resend: activating a pending
 * account with its code, and sending a new code. Resend answers the same whether or not the
 * account exists, and its cooldown applies to every username alike.
 */
export function createActivationService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  /**
   * Finishes the sign-in the visitor started before registering, when the challenge is still
   * valid, its client belongs to the same tenant and may sign this kind of account in with a
   * password. Anything else leaves the visitor to sign in on the Login screen.
   */
  async function signInAfterActivation(flow: FlowClient, user: UserRow, challenge: string, meta: VisitorMeta): Promise<string | undefined> {
    try {
      const interaction = await loadInteraction(ctx.provider, challenge, meta.browser);
      const clientId = interactionClientId(interaction);
      const signInFlow = await resolveFlowClient(ctx, clientId);
      if (signInFlow.tenant.id !== flow.tenant.id || !signInFlow.tenant.passwordBasedAuthenticationAllowed) return undefined;
      if (!usernameKinds(signInFlow, 'login').includes(user.email ? 'email' : 'phone')) return undefined;
      const now = Date.now();
      await ctx.users.recordSuccessfulLogin(user.id, now);
      await ctx.audit.record({ type: 'login.success', tenantId: flow.tenant.id, userId: user.id, clientId, ip: meta.ip, userAgent: meta.userAgent, details: { method: 'activation' } });
      // What this step proved is the code sent to the address (`email`, or RFC 8176's `sms`): the
      // password was chosen at registration, or never typed at all when the code was asked for
      // from the resend screen. Not `otp`, which stands for what the person holds offline.
      return await completeLogin(ctx.provider, interaction, user.id, [user.email ? 'email' : 'sms']);
    } catch (error) {
      if (!(error instanceof ApiError)) ctx.log.warn({ err: error }, 'sign-in after activation failed');
      return undefined;
    }
  }

  return {
    async confirm(body: ConfirmBody, meta: VisitorMeta): Promise<ConfirmResponse> {
      // A challenge this browser did not start is refused before the code is spent (DESIGN.md section 7).
      if (body.challenge) requireHeldInteraction(meta.browser, body.challenge);
      const flow = await resolveFlowClient(ctx, body.clientId);
      const username = normalizeUsername(body.username);
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
      const user = await ctx.users.findByUsername(flow.tenant.id, username);
      if (user?.status === 'active') throw new ApiError(ErrorCode.AlreadyActivated, 400, 'username');

      const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: user?.id ?? null };
      const check = await codes.verify({ tenantId: flow.tenant.id, purpose: 'activation', destination: username }, body.code);
      if (check.result === 'wrong') {
        await ctx.audit.record({ ...event, type: 'code.failed', details: { purpose: 'activation' } });
        throw new ApiError(ErrorCode.ActivationCodeInvalid, 400, 'code');
      }
      if (check.result === 'expired' || !user || user.status !== 'pending' || check.userId !== user.id) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      }

      const now = Date.now();
      const kind = kindOf(username);
      const byRegistrant = typedByRegistrant(ctx, user.registrant_browser_hash, meta);
      await inTransaction(ctx.db, async (trx) => {
        const users = createUserQueries(trx);
        const activated = byRegistrant
          ? await users.updateIfPending(user.id, { status: 'active', ...(kind === 'email' ? { email_verified: 1 } : { phone_number_verified: 1 }), registrant_browser_hash: null, updated_at: now })
          : await users.activateByOtherProof(user.id, kind, 'password', now);
        if (!activated) throw new ApiError(ErrorCode.AlreadyActivated, 400, 'username');
        const details = { channel: kind === 'email' ? 'email' : 'sms', ...(byRegistrant ? {} : { registrationDropped: true }) };
        await createAuditQueries(trx).record({ ...event, type: 'user.activated', details }, now);
      });

      const redirectTo = body.challenge ? await signInAfterActivation(flow, user, body.challenge, meta) : undefined;
      return redirectTo ? { redirectTo } : {};
    },

    async resend(body: SendCodeBody, meta: VisitorMeta): Promise<CodeSentResponse> {
      const flow = await resolveFlowClient(ctx, body.clientId);
      const { username, kind } = checkUsername(ctx.log, flow, body.username, ['email', 'phone']);
      await ctx.recaptcha.verify(flow.client, body.recaptchaToken, meta.ip);

      const target = { tenantId: flow.tenant.id, purpose: 'activation', destination: username } as const;
      // Before the account is looked up: the cooldown and its answer do not tell who has an account.
      await codes.reserveSend(target, meta.ip);
      const user = await ctx.users.findByUsername(flow.tenant.id, username);
      if (user?.status === 'pending') {
        const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: user.id };
        await codes.sendReserved({ ...target, userId: user.id }, {
          deliver: (code) => deliverCode(ctx, { kind: 'activation', usernameKind: kind, to: username, locale: messageLocale(user.locale, meta.locale), tenant: flow.tenant, name: user.name, code }, event),
        });
        await ctx.audit.record({ ...event, type: 'code.sent', details: { purpose: 'activation' } });
      }
      return { resendAfter: RESEND_COOLDOWN_SECONDS };
    },
  };
}
export type ActivationService = ReturnType<typeof createActivationService>;
