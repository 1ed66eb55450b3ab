import { ErrorCode, type SocialAuthorizer, type SocialLoginBody, type SocialLoginResponse } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { randomToken } from '../../lib/ids.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume } from '../../plugins/rate-limits.ts';
import { requireCapability, resolveFlowClient, type FlowClient } from '../login-flow/flow-client.ts';
import { interactionClientId, loadInteraction, type Interaction } from '../login-flow/interactions.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { verifyFacebookToken } from './facebook.ts';
import { verifyGoogleToken } from './google.ts';
import { providerUnavailable, type SocialProfile } from './provider-http.ts';
import { createSocialAccount, finishSocialSignIn, maskEmail, socialEvent, type SocialEvent } from './social-accounts.ts';
import { createSocialQueries } from './social.queries.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';

/** DESIGN.md section 7: short-lived, like the challenge it belongs to. */
export const LINK_TOKEN_TTL_MS = 10 * 60_000;

export const linkTokenHash = (ctx: Pick<AppContext, 'keys'>, token: string): string => ctx.keys.hmac('social-link-token', token);

/**
 * POST /api/v1/social/login (SPEC.md sections 6 and 7). The client (client_id, else the
 * challenge's) must have social:<authorizer>:login (1301) and the app id sent must be its own
 * (1002). The token is checked with the provider, never trusted from the browser. Then:
 * - the identity is linked to an account: sign that account in (1012 disabled, 1302 locked);
 * - the provider's verified e-mail belongs to an account: `linkRequired` with a link token, so the
 *   user proves that account first (never linked because the addresses match);
 * - otherwise a new account when the client has social:<authorizer>:register and the tenant
 *   allows registration, else 1010.
 */
export function createSocialLoginService(ctx: AppContext) {
  const deps = (baseUrl: string) => ({ baseUrl, log: ctx.log });

  async function guard(body: SocialLoginBody, meta: VisitorMeta): Promise<{ flow: FlowClient; interaction: Interaction }> {
    const interaction = await loadInteraction(ctx.provider, body.challenge, meta.browser);
    const flow = await resolveFlowClient(ctx, body.clientId ?? interactionClientId(interaction));
    requireCapability(flow, `social:${body.authorizer}:login`);
    const appId = body.authorizer === 'google' ? flow.client.googleAppId : flow.client.facebookAppId;
    if (!appId || appId !== body.appId) throw new ApiError(ErrorCode.InvalidField, 400, 'app_id', `app_id is not the client's ${body.authorizer === 'google' ? 'Google' : 'Facebook'} app id`);
    if (interactionClientId(interaction) !== flow.client.id) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
    return { flow, interaction };
  }

  async function verify(flow: FlowClient, authorizer: SocialAuthorizer, appId: string, accessToken: string): Promise<SocialProfile> {
    if (authorizer === 'google') return verifyGoogleToken(deps(ctx.config.social.googleApiUrl), appId, accessToken);
    if (!flow.client.facebookAppSecretEnc) {
      // The operator's mistake, not the user's: say so in the log, and answer as an unavailable provider.
      ctx.log.warn({ clientId: flow.client.id }, 'Facebook sign-in needs the client\'s Facebook app secret (client update --facebook-app-secret)');
      throw providerUnavailable();
    }
    return verifyFacebookToken(deps(ctx.config.social.facebookGraphUrl), { appId, appSecret: ctx.keys.decrypt(flow.client.facebookAppSecretEnc) }, accessToken);
  }

  /** A link token for proving `holder` (the account the verified e-mail belongs to). */
  async function linkRequired(flow: FlowClient, interaction: Interaction, holder: UserRow, profile: SocialProfile, event: SocialEvent): Promise<SocialLoginResponse> {
    if (holder.status === 'disabled' || !holder.email) {
      await ctx.audit.record({ ...event, userId: holder.id, type: 'social.login_failed', details: { provider: profile.provider, reason: 'disabled' } });
      throw new ApiError(ErrorCode.Disabled, 403);
    }
    const token = randomToken(32);
    const now = Date.now();
    await createSocialQueries(ctx.db).insertLinkToken({
      id: linkTokenHash(ctx, token),
      tenantId: flow.tenant.id,
      userId: holder.id,
      interactionUid: interaction.uid,
      clientId: flow.client.id,
      provider: profile.provider,
      subject: profile.subject,
      email: profile.email,
      expiresAt: now + LINK_TOKEN_TTL_MS,
      at: now,
    });
    // A pending account has not proved its password yet: only the code (which also activates it) can link it.
    const methods: ('password' | 'code')[] = holder.password_hash && holder.status === 'active' ? ['password', 'code'] : ['code'];
    return { linkRequired: true, linkToken: token, email: maskEmail(holder.email), methods };
  }

  async function releaseUnprovenEmail(holder: UserRow, profile: SocialProfile, event: SocialEvent): Promise<void> {
    const now = Date.now();
    await inTransaction(ctx.db, async (trx) => {
      const released = await trx
        .updateTable('users')
        .set({ email: null, updated_at: now })
        .where('id', '=', holder.id)
        .where('email', '=', holder.email)
        .where('email_verified', '=', 0)
        .executeTakeFirst();
      if (Number(released.numUpdatedRows) === 1) {
        await createAuditQueries(trx).record({ ...event, userId: holder.id, type: 'user.email_released', details: { reason: 'unverified', provider: profile.provider } }, now);
      }
    });
  }

  async function resolve(flow: FlowClient, interaction: Interaction, profile: SocialProfile, meta: VisitorMeta, retried = false): Promise<SocialLoginResponse> {
    const event = socialEvent({ tenantId: flow.tenant.id, clientId: flow.client.id }, meta);
    const identity = await createSocialQueries(ctx.db).findIdentity({ tenantId: flow.tenant.id, provider: profile.provider, subject: profile.subject });
    const linked = identity && (await ctx.users.findById(identity.user_id));
    if (linked) return finishSocialSignIn(ctx, interaction, linked, profile.provider, event, {}, meta.browser);

    if (profile.email && profile.emailVerified) {
      const holder = await ctx.users.findByEmail(flow.tenant.id, profile.email);
      // An active account holding the address unproven (kept by an older social sign-in whose
      // provider had not verified it) is no owner: the verified identity takes the address back
      // and gets an account of its own, never a link into that one.
      if (holder && holder.status === 'active' && !holder.email_verified) {
        await releaseUnprovenEmail(holder, profile, event);
      } else if (holder) {
        return linkRequired(flow, interaction, holder, profile, event);
      }
    }
    // A new account is a registration: the tenant must allow it too (SPEC.md section 6). Answered like a
    // missing capability, so the caller learns only that there is no account to sign in to.
    if (!flow.tenant.registrationAllowed || !flow.capabilities.has(`social:${profile.provider}:register`)) {
      await ctx.audit.record({ ...event, type: 'social.login_failed', details: { provider: profile.provider, reason: 'no_account' } });
      throw new ApiError(ErrorCode.AccountNotFound, 404);
    }
    let user: UserRow;
    try {
      user = await createSocialAccount(ctx, flow, profile, meta);
    } catch (error) {
      // A concurrent sign-in linked the identity, or someone took the address, first: look again.
      if (isUniqueViolation(error) && !retried) return resolve(flow, interaction, profile, meta, true);
      throw error;
    }
    return finishSocialSignIn(ctx, interaction, user, profile.provider, event, { created: true }, meta.browser);
  }

  return {
    async login(body: SocialLoginBody, meta: VisitorMeta): Promise<SocialLoginResponse> {
      const { flow, interaction } = await guard(body, meta);
      // Every call costs the provider a round trip: the same per-address budget as password sign-in.
      await consume(ctx.rateLimits.loginPerIp, meta.ip);
      let profile: SocialProfile;
      try {
        profile = await verify(flow, body.authorizer, body.appId, body.accessToken);
      } catch (error) {
        if (error instanceof ApiError) {
          await ctx.audit.record({
            ...socialEvent({ tenantId: flow.tenant.id, clientId: flow.client.id }, meta),
            type: 'social.login_failed',
            details: { provider: body.authorizer, reason: error.code === ErrorCode.ProviderUnavailable ? 'provider_unavailable' : error.code === ErrorCode.AccessTokenInvalid ? 'invalid_token' : 'missing_id' },
          });
        }
        throw error;
      }
      return resolve(flow, interaction, profile, meta);
    },
  };
}
export type SocialLoginService = ReturnType<typeof createSocialLoginService>;
