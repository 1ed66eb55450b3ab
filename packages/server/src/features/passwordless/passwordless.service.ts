import {
  ErrorCode,
  normalizeUsername,
  type CodeSentResponse,
  type PasswordlessLoginBody,
  type PasswordlessLoginResponse,
  type PasswordlessResendBody,
  type PasswordlessSendBody,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { newId } from '../../lib/ids.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { classifyClientUsername } from '../clients/client-username.ts';
import { requireCapability, requireTenantSwitch, resolveFlowClient, type FlowClient } from '../login-flow/flow-client.ts';
import { completeLogin, interactionClientId, loadInteraction, type Interaction } from '../login-flow/interactions.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { createMfaLoginService } from '../mfa/mfa-login.service.ts';

interface Guarded {
  flow: FlowClient;
  phone: string;
  interaction: Interaction | undefined;
}

/**
 * Passwordless sign-in by phone (SPEC.md sections 6 and 7): POST /api/v1/passwordless/send and
 * …/resend send a sign-in code by SMS, POST …/login signs in with it.
 *
 * - Needs the tenant's passwordlessAuthenticationAllowed (1303) and the client's passwordless:login (1301).
 * - An active account with the phone gets a code. An unknown phone gets one only when the client
 *   has passwordless:register (the first sign-in then creates the account); else 1010, as SPEC.md
 *   requires, even though that tells whether the phone has an account.
 * - A pending (registered, not yet activated) account is activated by a passwordless sign-in: the
 *   code proves the phone, which is all activation proves. A disabled account answers 1012.
 */
export function createPasswordlessService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const mfaLogin = createMfaLoginService(ctx, codes);
  /**
   * The client (client_id, else the challenge's), the tenant switch, the capability, the phone's
   * format (10 digits or the client's phone policy; 1015), reCAPTCHA, and the challenge (1026).
   */
  async function guard(body: { challenge?: string | undefined; clientId?: string | undefined; phoneNumber: string; recaptchaToken?: string | undefined }, meta: VisitorMeta): Promise<Guarded> {
    const interaction = body.challenge === undefined ? undefined : await loadInteraction(ctx.provider, body.challenge, meta.browser);
    const clientId = body.clientId ?? (interaction && interactionClientId(interaction));
    if (clientId === undefined) throw new ApiError(ErrorCode.RequiredField, 400, 'client_id', 'client_id is required without a challenge');
    const flow = await resolveFlowClient(ctx, clientId);
    requireTenantSwitch(flow, 'passwordlessAuthenticationAllowed');
    requireCapability(flow, 'passwordless:login');
    const phone = normalizeUsername(body.phoneNumber);
    if (phone.includes('@') || !classifyClientUsername(ctx.log, flow.client, phone, ['phone'])) {
      throw new ApiError(ErrorCode.PhoneInvalid, 400, 'phone_number', `${body.phoneNumber} has an invalid format`);
    }
    await ctx.recaptcha.verify(flow.client, body.recaptchaToken, meta.ip);
    if (interaction && interactionClientId(interaction) !== flow.client.id) {
      throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
    }
    return { flow, phone, interaction };
  }

  const targetOf = (flow: FlowClient, phone: string) => ({ tenantId: flow.tenant.id, purpose: 'passwordless', destination: phone }) as const;

  async function sendCode({ flow, phone }: Guarded, meta: VisitorMeta): Promise<CodeSentResponse> {
    const target = targetOf(flow, phone);
    await codes.reserveSend(target, meta.ip);
    let user: UserRow | undefined;
    try {
      user = await ctx.users.findByPhone(flow.tenant.id, phone);
      if (user && user.status !== 'active' && user.status !== 'pending') throw new ApiError(ErrorCode.Disabled, 403);
      if (!user && !flow.capabilities.has('passwordless:register')) throw new ApiError(ErrorCode.AccountNotFound, 404, 'phone_number');
    } catch (error) {
      await codes.releaseSend(target);
      throw error;
    }
    const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent, userId: user?.id ?? null };
    await codes.sendReserved({ ...target, userId: user?.id ?? null }, {
      deliver: (code) => deliverCode(ctx, { kind: 'passwordless', usernameKind: 'phone', to: phone, locale: messageLocale(user?.locale, meta.locale), tenant: flow.tenant, name: user?.name ?? null, code }, event),
    });
    await ctx.audit.record({ ...event, type: 'passwordless.code_sent', details: { newAccount: !user } });
    return { resendAfter: RESEND_COOLDOWN_SECONDS };
  }

  /** The account the code proves: the existing one (a pending one activated), or a new one when the client may register. */
  async function accountFor(flow: FlowClient, phone: string, meta: VisitorMeta): Promise<{ user: UserRow; created: boolean }> {
    const now = Date.now();
    const existing = await ctx.users.findByPhone(flow.tenant.id, phone);
    if (existing) {
      if (existing.status === 'pending') {
        await inTransaction(ctx.db, async (trx) => {
          if (await createUserQueries(trx).activateByOtherProof(existing.id, 'phone', 'passwordless', now)) {
            await createAuditQueries(trx).record(
              { type: 'user.activated', tenantId: flow.tenant.id, clientId: flow.client.id, userId: existing.id, ip: meta.ip, userAgent: meta.userAgent, details: { channel: 'sms', method: 'passwordless' } },
              now,
            );
          }
        });
        const activated = await ctx.users.findById(existing.id);
        if (activated?.status === 'active') return { user: activated, created: false };
      }
      if (existing.status !== 'active') throw new ApiError(ErrorCode.Disabled, 403);
      return { user: existing, created: false };
    }
    if (!flow.capabilities.has('passwordless:register')) throw new ApiError(ErrorCode.AccountNotFound, 404, 'phone_number');
    const userId = newId();
    try {
      await inTransaction(ctx.db, async (trx) => {
        await createUserQueries(trx).insert({
          id: userId,
          tenant_id: flow.tenant.id,
          phone_number: phone,
          phone_number_verified: 1,
          locale: meta.locale,
          registration_method: 'passwordless',
          status: 'active',
          created_at: now,
        });
        await createAuditQueries(trx).record(
          { type: 'user.registered', tenantId: flow.tenant.id, clientId: flow.client.id, userId, ip: meta.ip, userAgent: meta.userAgent, details: { channel: 'sms', method: 'passwordless' } },
          now,
        );
      });
    } catch (error) {
      // Another sign-in of the same phone created it first: sign in to that account.
      if (isUniqueViolation(error)) return accountFor(flow, phone, meta);
      throw error;
    }
    const user = await ctx.users.findById(userId);
    if (!user) throw new ApiError(ErrorCode.AccountNotFound, 404, 'phone_number');
    return { user, created: true };
  }

  return {
    async send(body: PasswordlessSendBody, meta: VisitorMeta): Promise<CodeSentResponse> {
      return sendCode(await guard(body, meta), meta);
    },

    async resend(body: PasswordlessResendBody, meta: VisitorMeta): Promise<CodeSentResponse> {
      return sendCode(await guard(body, meta), meta);
    },

    async login(body: PasswordlessLoginBody, meta: VisitorMeta): Promise<PasswordlessLoginResponse> {
      const { flow, phone, interaction } = await guard(body, meta);
      if (!interaction) throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
      const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent };
      const check = await codes.verify(targetOf(flow, phone), body.code);
      if (check.result !== 'ok') {
        const known = await ctx.users.findByPhone(flow.tenant.id, phone);
        await ctx.audit.record({ ...event, userId: known?.id ?? null, type: 'passwordless.failure', details: { reason: check.result === 'wrong' ? 'wrong_code' : 'expired_code' } });
        if (check.result === 'wrong') throw new ApiError(ErrorCode.PhoneCodeInvalid, 400, 'code');
        throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      }
      const { user, created } = await accountFor(flow, phone, meta);
      // No 2-step downgrade: with 2-step on, the code is only the first factor.
      const step = await mfaLogin.secondStep(user, interaction.uid, flow.client.id, 'passwordless', meta);
      await ctx.users.recordSuccessfulLogin(user.id, Date.now());
      await ctx.audit.record({ ...event, userId: user.id, type: 'passwordless.success', details: { created, ...(step ? { secondStep: step.tokenType } : {}) } });
      // RFC 8176: a code texted to the phone.
      return step ?? { redirectTo: await completeLogin(ctx.provider, interaction, user.id, ['sms']) };
    },
  };
}
export type PasswordlessService = ReturnType<typeof createPasswordlessService>;
