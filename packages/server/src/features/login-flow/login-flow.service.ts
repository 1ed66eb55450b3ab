import {
  ErrorCode,
  effectiveCapabilities,
  normalizeUsername,
  type LoginRequestInfo,
  type LoginResponse,
  type LogoutRequestInfo,
  type PasswordLoginBody,
  type PublicClient,
  type UsernameKind,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountBudgetKey, consume, takeTry } from '../../plugins/rate-limits.ts';
import { dummySecretHash, refuseWhenArgon2Overloaded, verifySecret } from '../../lib/passwords.ts';
import { toPublicClient, type ClientRecord } from '../clients/clients.queries.ts';
import { classifyClientUsername } from '../clients/client-username.ts';
import { resolveFlowClient } from './flow-client.ts';
import { completeConsent, completeLogin, interactionClientId, loadInteraction, oidcContextOf, loadInteractionForSecondDevice, requireHeldInteraction } from './interactions.ts';
import { passwordExpiry } from './password-expiry.ts';
import {
  accountLocked,
  countFailedPassword,
  countFailedTrustedBrowser,
  countFailedUsername,
  forgetTrustedBrowserFailures,
  trustedBrowser,
  trustedBrowserLockedUntil,
  usernameLockedUntil,
} from './lockout.ts';
import { createMfaLoginService } from '../mfa/mfa-login.service.ts';
import { createDeviceLoginService } from '../webauthn/device-login.service.ts';
import type { BrowserHold } from '../../plugins/browser-binding.ts';

export interface RequestMeta {
  ip: string;
  userAgent: string | undefined;
  /** What the calling browser holds of the provider's cookies: the binding of every challenge. */
  browser: BrowserHold;
  /** The browser's long-lived key (`passgate_browser`), when it has one: see lockout.ts, trustedBrowser. */
  browserKey?: string | undefined;
}

const DAY = 86_400_000;

export function createLoginFlowService(ctx: AppContext) {
  const { provider, clients, tenants, users, audit, rateLimits } = ctx;
  const mfaLogin = createMfaLoginService(ctx);
  const deviceLogin = createDeviceLoginService(ctx);

  const clientAndTenant = (clientId: string) => resolveFlowClient(ctx, clientId);

  function loginKinds(client: ClientRecord): UsernameKind[] {
    const caps = effectiveCapabilities(client.permissions);
    const kinds: UsernameKind[] = [];
    if (caps.has('users:email:login')) kinds.push('email');
    if (caps.has('users:phoneNumber:login')) kinds.push('phone');
    return kinds;
  }

  return {
    /**
     * The sign-in request, for the browser that started it; or, read only, for the second device
     * of a device sign-in, which proves itself with the pending device request (`authnChallenge`).
     */
    async getLoginRequest(challenge: string, meta: RequestMeta, authnChallenge?: string): Promise<LoginRequestInfo> {
      const held = meta.browser.interactionUid === challenge;
      if (!held && !(authnChallenge && (await deviceLogin.isPendingFor(authnChallenge, challenge)))) requireHeldInteraction(meta.browser, challenge);
      const interaction = held ? await loadInteraction(provider, challenge, meta.browser) : await loadInteractionForSecondDevice(provider, challenge);
      const { client, tenant } = await clientAndTenant(interactionClientId(interaction));
      const info: LoginRequestInfo = {
        challenge,
        skip: false,
        client: toPublicClient(client, tenant),
        oidcContext: oidcContextOf(interaction),
      };
      // Already signed in and only the grant is missing: the request neither forces a sign-in
      // (prompt=login, max_age…) nor asks for a new account (prompt=create).
      const accountId = interaction.session?.accountId;
      if (held && interaction.prompt.name === 'consent' && accountId) {
        const user = await users.findById(accountId);
        if (user && user.status === 'active' && user.tenant_id === client.tenantId) {
          info.skip = true;
          info.redirectTo = await completeConsent(provider, interaction, accountId);
        }
      }
      return info;
    },

    async getPublicClient(clientId: string): Promise<PublicClient> {
      const client = await clients.findById(clientId);
      const tenant = client && (await tenants.findById(client.tenantId));
      if (!client || !tenant) throw new ApiError(ErrorCode.ClientNotFound, 404, 'client_id');
      return toPublicClient(client, tenant);
    },

    async passwordLogin(body: PasswordLoginBody, meta: RequestMeta): Promise<LoginResponse> {
      const interaction = await loadInteraction(provider, body.challenge, meta.browser);
      const clientId = interactionClientId(interaction);
      if (body.clientId !== undefined && body.clientId !== clientId) {
        throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
      }
      const { client, tenant } = await clientAndTenant(clientId);
      if (!tenant.passwordBasedAuthenticationAllowed) throw new ApiError(ErrorCode.TenantDisallows, 403);

      const username = normalizeUsername(body.username);
      const kind: UsernameKind = username.includes('@') ? 'email' : 'phone';
      const kinds = loginKinds(client);
      if (!kinds.includes(kind)) throw new ApiError(ErrorCode.ClientLacksPermission, 403, 'username');
      if (!classifyClientUsername(ctx.log, client, username, kinds)) {
        throw new ApiError(kind === 'email' ? ErrorCode.EmailInvalid : ErrorCode.PhoneInvalid, 400, 'username', `${body.username} has an invalid format`);
      }

      // The budgets first: a flood is refused as a flood (429) whatever the load; then an attempt
      // that would wait too long for its password check is turned away before any other work. A
      // browser the account trusts has a lock of its own instead of the account's budget and lock,
      // which other people's wrong passwords use up (lockout.ts, trustedBrowser).
      await consume(rateLimits.loginPerIp, meta.ip);
      const user = await users.findByUsername(tenant.id, username);
      const trusted = user?.password_hash ? await trustedBrowser(ctx, user.id, meta.browserKey) : null;
      const giveBack = trusted ? async () => undefined : await takeTry(rateLimits.loginPerAccount, accountBudgetKey(ctx.keys, tenant.id, username));
      refuseWhenArgon2Overloaded();

      const event = { tenantId: tenant.id, clientId, ip: meta.ip, userAgent: meta.userAgent };
      const now = Date.now();
      // Every wrong password counts, during a lock too (each one then lengthens it), and is checked
      // with the same work whether the account exists or not: neither the answers, their timing nor
      // the lockout reveal who has an account. A locked account answers 1302 whatever was sent.
      if (!user || !user.password_hash) {
        const lockedBefore = await usernameLockedUntil(ctx, tenant.id, username, now);
        await verifySecret(await dummySecretHash(), body.password);
        const counted = await countFailedUsername(ctx, tenant.id, username, now);
        await audit.record({ ...event, type: 'login.failure', details: { reason: user ? 'no_password' : 'unknown_user', failures: counted.failures } });
        const lockedUntil = counted.lockedUntil ?? lockedBefore;
        if (lockedUntil) await audit.record({ ...event, type: 'login.locked', details: { lockedUntil, failures: counted.failures } });
        throw lockedBefore && lockedUntil ? accountLocked(lockedUntil) : new ApiError(ErrorCode.WrongCredentials, 401);
      }

      if (trusted) {
        // The same rules as the account's below, on the browser's own run of failures.
        const lockedBefore = await trustedBrowserLockedUntil(ctx, tenant.id, trusted, now);
        const failure = { ...event, userId: user.id };
        if (!(await verifySecret(user.password_hash, body.password))) {
          const counted = await countFailedTrustedBrowser(ctx, tenant.id, trusted, now);
          await audit.record({ ...failure, type: 'login.failure', details: { reason: 'wrong_password', failures: counted.failures, trustedBrowser: true } });
          const lockedUntil = counted.lockedUntil ?? lockedBefore;
          if (lockedUntil) await audit.record({ ...failure, type: 'login.locked', details: { lockedUntil, failures: counted.failures, trustedBrowser: true } });
          throw lockedBefore && lockedUntil ? accountLocked(lockedUntil) : new ApiError(ErrorCode.WrongCredentials, 401);
        }
        if (lockedBefore) {
          await audit.record({ ...failure, type: 'login.locked', details: { lockedUntil: lockedBefore, trustedBrowser: true } });
          throw accountLocked(lockedBefore);
        }
        await forgetTrustedBrowserFailures(ctx, tenant.id, trusted);
      } else {
        const lockedBefore = user.locked_until && user.locked_until > now ? user.locked_until : null;
        if (!(await verifySecret(user.password_hash, body.password))) {
          const counted = await countFailedPassword(ctx, user.id, now);
          await audit.record({ ...event, userId: user.id, type: 'login.failure', details: { reason: 'wrong_password', failures: counted.failures } });
          const lockedUntil = counted.lockedUntil ?? lockedBefore;
          if (lockedUntil) await audit.record({ ...event, userId: user.id, type: 'login.locked', details: { lockedUntil, failures: counted.failures } });
          throw lockedBefore && lockedUntil ? accountLocked(lockedUntil) : new ApiError(ErrorCode.WrongCredentials, 401);
        }
        if (lockedBefore) {
          await audit.record({ ...event, userId: user.id, type: 'login.locked', details: { lockedUntil: lockedBefore } });
          throw accountLocked(lockedBefore);
        }
        // Guesses sent at once were all read unlocked; one that verified while the others' failures
        // locked the account is refused like any guess after the lock.
        const lockedMeanwhile = (await users.findById(user.id))?.locked_until;
        if (lockedMeanwhile && lockedMeanwhile > Date.now()) {
          await audit.record({ ...event, userId: user.id, type: 'login.locked', details: { lockedUntil: lockedMeanwhile } });
          throw accountLocked(lockedMeanwhile);
        }
      }

      // The account's budget is for guesses: the right password gives its point back, or a person
      // (or a shared demo account) signing in often would be refused as a guesser.
      await giveBack();

      if (user.status === 'pending') throw new ApiError(ErrorCode.NotActivated, 403);
      if (user.status !== 'active') throw new ApiError(ErrorCode.Disabled, 403);

      const expiry = passwordExpiry(user.password_changed_at, tenant, now);
      if (expiry.expired) {
        await audit.record({ ...event, userId: user.id, type: 'login.failure', details: { reason: 'password_expired' } });
        throw new ApiError(ErrorCode.PasswordExpired, 403);
      }

      const passwordWarning = expiry.warning
        ? { passwordWarning: { expiresAt: Math.floor(expiry.expiresAt / 1000), daysLeft: Math.max(0, Math.ceil((expiry.expiresAt - now) / DAY)) } }
        : {};

      // 2-step verification: the password is right, but the interaction stays open until the
      // second step (POST /api/v1/mfa/login) proves the code. An SMS or e-mail code is sent only
      // when the 2-step screen asks for it (POST /api/v1/mfa/trigger-challenge).
      const step = await mfaLogin.secondStep(user, interaction.uid, clientId, 'pwd', meta);
      // A trusted browser's sign-in leaves the account's run of failures as it is: that run, and the
      // lock it sets, are for the other browsers, where the guesses come from.
      const forgetFailures = () => (trusted ? Promise.resolve() : users.recordSuccessfulLogin(user.id, now));
      if (step) {
        await forgetFailures();
        return { ...step, ...passwordWarning };
      }

      await forgetFailures();
      await audit.record({ ...event, userId: user.id, type: 'login.success', details: { method: 'password' } });
      const redirectTo = await completeLogin(provider, interaction, user.id, ['pwd']);
      return { redirectTo, ...passwordWarning };
    },

    async getLogoutRequest(challenge: string, meta: RequestMeta): Promise<LogoutRequestInfo> {
      const request = await ctx.logoutRequests.find(challenge, meta.browser);
      if (!request || request.decision) throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      let client = null;
      if (request.clientId) {
        const found = await clients.findById(request.clientId);
        const tenant = found && (await tenants.findById(found.tenantId));
        client = found && tenant ? toPublicClient(found, tenant) : null;
      }
      // A relying party that proved the session with its ID token asked for this logout itself.
      return { challenge, autoConfirm: request.hasIdTokenHint, client };
    },

    async decideLogout(challenge: string, confirmed: boolean, meta: RequestMeta): Promise<{ redirectTo: string }> {
      const request = await ctx.logoutRequests.find(challenge, meta.browser);
      if (!request || request.decision) throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      if (confirmed) {
        await ctx.logoutRequests.decide(request, 'confirmed');
        const client = request.clientId ? await clients.findById(request.clientId) : undefined;
        const user = request.accountId ? await users.findById(request.accountId) : undefined;
        await audit.record({
          type: 'logout',
          tenantId: user?.tenant_id ?? client?.tenantId ?? null,
          userId: request.accountId,
          clientId: request.clientId,
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        return { redirectTo: `${ctx.config.publicUrl}/api/v1/requests/logout/${encodeURIComponent(challenge)}/continue` };
      }
      await ctx.logoutRequests.remove(challenge);
      // Back: stay signed in and return to where the relying party asked (a registered URI), else
      // home. Without its `state`, which tells a relying party that the logout happened.
      if (request.postLogoutRedirectUri) return { redirectTo: request.postLogoutRedirectUri };
      return { redirectTo: `${ctx.config.publicUrl}/` };
    },

    /** The confirmed logout's final step: the form the browser posts to the provider's end-session confirmation. */
    async logoutContinuation(challenge: string, meta: RequestMeta): Promise<{ action: string; xsrf: string }> {
      const request = await ctx.logoutRequests.find(challenge, meta.browser);
      if (!request || request.decision !== 'confirmed') throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      await ctx.logoutRequests.remove(challenge);
      return { action: `${ctx.config.issuer}/session/end/confirm`, xsrf: request.xsrf };
    },
  };
}
export type LoginFlowService = ReturnType<typeof createLoginFlowService>;
