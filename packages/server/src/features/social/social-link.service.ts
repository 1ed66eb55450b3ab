import { ErrorCode, type RedirectOrMfaStep, type SocialAuthorizer, type SocialLinkBody, type SocialLinkCodeSent, type SocialLinkSendCodeBody } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { SocialLinkTokenRow, UserRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { dummySecretHash, verifySecret } from '../../lib/passwords.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountBudgetKey, consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createCodeService, type CodeService, type CodeTarget } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { countFailedPassword, accountLocked } from '../login-flow/lockout.ts';
import { interactionClientId, loadInteraction, type Interaction } from '../login-flow/interactions.ts';
import { passwordExpiry } from '../login-flow/password-expiry.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { finishSocialSignIn, maskEmail, socialEvent, type SocialEvent } from './social-accounts.ts';
import { linkTokenHash } from './social-login.service.ts';
import { createSocialQueries } from './social.queries.ts';

/** Wrong passwords one link token takes before it is dead (the social sign-in must start again). */
export const LINK_TOKEN_MAX_ATTEMPTS = 5;

interface OpenLink {
  row: SocialLinkTokenRow;
  user: UserRow & { email: string };
  interaction: Interaction;
  provider: SocialAuthorizer;
  event: SocialEvent;
}

const expired = (): ApiError => new ApiError(ErrorCode.RequestExpired, 400, 'link_token');

/**
 * POST /api/v1/social/link/send-code and /api/v1/social/link: the user proves the account the
 * provider's verified e-mail belongs to, by its password (argon2, with the sign-in budgets and the
 * lockout of POST /api/v1/users/login) or by a code sent to its e-mail; only then is the identity
 * linked, and the sign-in finished. Any link token that cannot be used (unknown, expired, used,
 * dead, another challenge or client) answers 1026 (400, field link_token).
 */
export function createSocialLinkService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const targetOf = (user: UserRow & { email: string }): CodeTarget => ({ tenantId: user.tenant_id, purpose: 'social_link', destination: user.email });

  async function open(body: { challenge: string; linkToken: string; clientId?: string | undefined }, meta: VisitorMeta): Promise<OpenLink> {
    const row = await createSocialQueries(ctx.db).findLinkToken(linkTokenHash(ctx, body.linkToken));
    const now = Date.now();
    if (!row || row.consumed_at !== null || row.expires_at <= now || row.attempts >= LINK_TOKEN_MAX_ATTEMPTS || row.interaction_uid !== body.challenge) throw expired();
    if (body.clientId !== undefined && body.clientId !== row.client_id) throw expired();
    const interaction = await loadInteraction(ctx.provider, body.challenge, meta.browser);
    if (interactionClientId(interaction) !== row.client_id) throw expired();
    const user = await ctx.users.findById(row.user_id);
    // The account lost the address meanwhile: the proof it asked for no longer applies.
    if (!user || !user.email) throw expired();
    const provider = row.provider as SocialAuthorizer;
    const event = socialEvent({ tenantId: row.tenant_id, clientId: row.client_id }, meta);
    if (user.status === 'disabled') {
      await ctx.audit.record({ ...event, userId: user.id, type: 'social.login_failed', details: { provider, reason: 'disabled' } });
      throw new ApiError(ErrorCode.Disabled, 403);
    }
    return { row, user: user as UserRow & { email: string }, interaction, provider, event };
  }

  async function failure(link: OpenLink, reason: string, extra: Record<string, unknown> = {}): Promise<void> {
    await ctx.audit.record({ ...link.event, userId: link.user.id, type: 'social.login_failed', details: { provider: link.provider, reason, ...extra } });
  }

  /** The password proof: the budgets, lockout and answers of POST /api/v1/users/login. */
  async function checkPassword(link: OpenLink, password: string, meta: VisitorMeta): Promise<void> {
    const { user } = link;
    await consume(ctx.rateLimits.loginPerIp, meta.ip);
    await consume(ctx.rateLimits.loginPerAccount, accountBudgetKey(ctx.keys, user.tenant_id, user.email));
    const now = Date.now();
    if (user.locked_until && user.locked_until > now) {
      await ctx.audit.record({ ...link.event, userId: user.id, type: 'login.locked', details: { lockedUntil: user.locked_until } });
      throw accountLocked(user.locked_until, now);
    }
    if (!(await createSocialQueries(ctx.db).takeAttempt(link.row.id, LINK_TOKEN_MAX_ATTEMPTS, now))) throw expired();
    if (!user.password_hash || user.status !== 'active') {
      // Same work and same answer as a wrong password; such accounts are offered the code only.
      await verifySecret(await dummySecretHash(), password);
      await failure(link, 'no_password');
      throw new ApiError(ErrorCode.WrongCredentials, 401, 'password');
    }
    if (!(await verifySecret(user.password_hash, password))) {
      const { failures, lockedUntil } = await countFailedPassword(ctx, user.id, now);
      await failure(link, 'wrong_password', { failures });
      if (lockedUntil) await ctx.audit.record({ ...link.event, userId: user.id, type: 'login.locked', details: { lockedUntil, failures } });
      throw new ApiError(ErrorCode.WrongCredentials, 401, 'password');
    }
    // An expired password signs nobody in at the login screen (1103, reset it first); it must not
    // sign in here either, where linking ends in a sign-in. The code proof stays open.
    const tenant = await ctx.tenants.findById(user.tenant_id);
    if (tenant && passwordExpiry(user.password_changed_at, tenant, now).expired) {
      await failure(link, 'password_expired');
      throw new ApiError(ErrorCode.PasswordExpired, 403);
    }
  }

  /** The code proof: a right code sent for this very link token; answers its id to consume with the link. */
  async function checkCode(link: OpenLink, code: string, meta: VisitorMeta): Promise<string> {
    await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
    const check = await codes.verify(targetOf(link.user), code, { keep: true });
    if (check.result === 'wrong') {
      await failure(link, 'wrong_code');
      throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
    }
    const payload = check.result === 'ok' && check.payload ? (JSON.parse(check.payload) as { linkToken?: string }) : {};
    if (check.result === 'expired' || payload.linkToken !== link.row.id) {
      await failure(link, 'expired_code');
      throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
    }
    return check.codeId;
  }

  return {
    async sendCode(body: SocialLinkSendCodeBody, meta: VisitorMeta): Promise<SocialLinkCodeSent> {
      const link = await open(body, meta);
      const { user } = link;
      const tenant = await ctx.tenants.findById(user.tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 500);
      const target = targetOf(user);
      // The code belongs to this link token: another sign-in cannot use it.
      await codes.sendToAccount({ ...target, userId: user.id, payload: JSON.stringify({ linkToken: link.row.id }) }, meta.ip, {
        deliver: (code) => deliverCode(
          ctx,
          { kind: 'social_link', usernameKind: 'email', to: user.email, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
          { ...link.event, userId: user.id },
        ),
      });
      await ctx.audit.record({ ...link.event, userId: user.id, type: 'code.sent', details: { purpose: 'social_link', provider: link.provider } });
      return { channel: 'email', destination: maskEmail(user.email), resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    async link(body: SocialLinkBody, meta: VisitorMeta): Promise<RedirectOrMfaStep> {
      if (body.password !== undefined && body.code !== undefined) throw new ApiError(ErrorCode.InvalidField, 400, 'code', 'Send either password or code, not both');
      if (body.password === undefined && body.code === undefined) throw new ApiError(ErrorCode.RequiredField, 400, 'password', 'password or code is required');
      const link = await open(body, meta);
      let codeId: string | undefined;
      if (body.password !== undefined) {
        await checkPassword(link, body.password, meta);
      } else {
        codeId = await checkCode(link, body.code as string, meta);
        // A locked account stays locked, whichever proof is offered.
        if (link.user.locked_until && link.user.locked_until > Date.now()) {
          await ctx.audit.record({ ...link.event, userId: link.user.id, type: 'login.locked', details: { lockedUntil: link.user.locked_until } });
          throw accountLocked(link.user.locked_until);
        }
      }

      const { row, user } = link;
      const method = codeId ? 'code' : 'password';
      try {
        await inTransaction(ctx.db, async (trx) => {
          const now = Date.now();
          if (!(await createSocialQueries(trx).consume(row.id, now))) throw expired();
          if (codeId && !(await codes.consume(codeId, trx))) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
          await createSocialQueries(trx).insertIdentity({ tenantId: row.tenant_id, provider: row.provider, subject: row.subject, userId: user.id, email: row.email }, now);
          // The code proved the address; the registrant's password and profile are not the owner's.
          if (codeId && user.status === 'pending' && (await createUserQueries(trx).activateByOtherProof(user.id, 'email', row.provider, now))) {
            await createAuditQueries(trx).record({ ...link.event, userId: user.id, type: 'user.activated', details: { channel: 'email', method: `social_link:${row.provider}` } }, now);
          }
          await createAuditQueries(trx).record({ ...link.event, userId: user.id, type: 'social.linked', details: { provider: row.provider, method } }, now);
        });
      } catch (error) {
        // The identity was linked by a concurrent request (to this or another account): this token is spent.
        if (isUniqueViolation(error)) throw expired();
        throw error;
      }
      const current = await ctx.users.findById(user.id);
      if (!current) throw expired();
      return finishSocialSignIn(ctx, link.interaction, current, link.provider, link.event, { linked: method }, meta.browser);
    },
  };
}
export type SocialLinkService = ReturnType<typeof createSocialLinkService>;
