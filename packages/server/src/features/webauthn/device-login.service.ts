import { PASSKEY_AMR } from './passkey-login.service.ts';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { qrCodeDataUrl } from '../../lib/qr-code.ts';
import { loadWebAuthn } from './webauthn-library.ts';
import {
  ErrorCode,
  normalizeUsername,
  type DeviceLoginChallengeResponse,
  type DeviceLoginDenyBody,
  type DeviceLoginInfo,
  type DeviceLoginPollBody,
  type DeviceLoginPollResponse,
  type GetChallengeBody,
  type ResolveChallengeBody,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow, WebauthnChallengeRow, WebauthnCredentialRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { describeUserAgent } from '../../lib/user-agent.ts';
import type { PlaceLookup } from '../sessions/geoip.ts';
import { parseJson } from '../../lib/json.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountLocked } from '../login-flow/lockout.ts';
import { accountBudgetKey, consume } from '../../plugins/rate-limits.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { classifyClientUsername } from '../clients/client-username.ts';
import { requireCapability, requireTenantSwitch, resolveFlowClient, type FlowClient } from '../login-flow/flow-client.ts';
import { completeLogin, interactionClientId, loadInteraction, loadInteractionForSecondDevice, requireHeldInteraction, type Interaction } from '../login-flow/interactions.ts';
import type { BrowserHold } from '../../plugins/browser-binding.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createWebauthnQueries } from './webauthn.queries.ts';
import { DEFAULT_TTLS, challengeHash, maskDestination, newWebauthnChallenge, redirectKeyHash, refusalReason, relyingPartyOf, type WebauthnTtls } from './webauthn-rp.ts';

export const VERIFY_FAILED_MESSAGE = 'Verify device failed';

const expired = (field = 'challenge') => new ApiError(ErrorCode.RequestExpired, 400, field);

/** Why an assertion that verified still approves nothing; thrown inside the transaction to roll it back. */
class NotApproved extends Error {
  constructor(readonly reason: 'used' | 'replayed') {
    super(reason);
  }
}

/**
 * Sign in with a device (SPEC.md sections 2, 4 and 7). The first device asks for a request
 * (random, stored hashed, 300 s, single use, bound to the user, the client and the interaction)
 * and gets a redirect URL key only it holds. This device or another (through the QR code of the
 * verify-device page) asserts with one of the user's active devices; the assertion is verified for
 * real (origin, RP id, challenge, signature, a counter that only moves forward) and approves the
 * request. The first device's poll, with the key, then finishes its sign-in, once.
 * Needs the tenant's webauthnAllowed (1303) and the client's webauthn:login (1301).
 */
export function createDeviceLoginService(ctx: AppContext, options: { ttls?: Partial<WebauthnTtls>; place?: PlaceLookup | undefined } = {}) {
  const ttls: WebauthnTtls = { ...DEFAULT_TTLS, ...options.ttls };
  const rp = relyingPartyOf(ctx.config);

  async function flowOf(clientId: string): Promise<FlowClient> {
    const flow = await resolveFlowClient(ctx, clientId);
    requireTenantSwitch(flow, 'webauthnAllowed');
    requireCapability(flow, 'webauthn:login');
    return flow;
  }

  /** The sign-in request: held by this browser (`browser`), or, for the approving second device, only open. */
  async function interactionOf(uid: string, browser?: BrowserHold): Promise<Interaction> {
    try {
      return await (browser ? loadInteraction(ctx.provider, uid, browser) : loadInteractionForSecondDevice(ctx.provider, uid));
    } catch (error) {
      if (error instanceof ApiError) throw expired('oauth_challenge');
      throw error;
    }
  }

  /** As a password sign-in: a locked account 1302, a disabled one 1012. */
  function checkAccount(user: UserRow): void {
    if (user.locked_until && user.locked_until > Date.now()) throw accountLocked(user.locked_until);
    if (user.status !== 'active') throw new ApiError(ErrorCode.Disabled, 403);
  }

  async function activeDevices(userId: string): Promise<WebauthnCredentialRow[]> {
    return (await createWebauthnQueries(ctx.db).listForUser(userId)).filter((row) => row.active === 1);
  }

  /** The request options for the stored WebAuthn challenge: only active devices are allowed. */
  async function requestOptions(webauthnChallenge: string, devices: WebauthnCredentialRow[]) {
    return (await loadWebAuthn()).generateAuthenticationOptions({
      rpID: rp.rpID,
      challenge: new Uint8Array(Buffer.from(webauthnChallenge, 'base64url')),
      allowCredentials: devices.map((row) => ({ id: row.credential_id, transports: parseJson<string[]>(row.transports, []) })),
      // A device sign-in skips 2-step (DESIGN.md section 7): only an authenticator that verified the person (PIN, biometrics) may.
      userVerification: 'required',
      timeout: ttls.deviceLoginMs,
    });
  }

  /** The open (or, for the poll, approved) device sign-in request named by `challenge` for this interaction, or 1026. */
  async function requestOf(challenge: string, oauthChallenge: string): Promise<WebauthnChallengeRow> {
    const row = await createWebauthnQueries(ctx.db).findChallenge(challengeHash(ctx.keys, challenge));
    if (!row || row.type !== 'authn' || row.interaction_uid !== oauthChallenge || row.expires_at <= Date.now() || !row.webauthn_challenge) throw expired();
    return row;
  }

  function requesterOf(row: WebauthnChallengeRow, locale: string): DeviceLoginInfo['requester'] {
    const place = row.requester_ip && options.place ? options.place(row.requester_ip, locale) : undefined;
    return {
      ...describeUserAgent(row.requester_user_agent ?? undefined),
      ip: row.requester_ip,
      ...(place ? { place } : {}),
      requestedAt: new Date(row.created_at).toISOString(),
    };
  }

  return {
    /** Whether `challenge` is a device sign-in request of the interaction `oauthChallenge` still waiting for approval. */
    async isPendingFor(challenge: string, oauthChallenge: string): Promise<boolean> {
      try {
        return (await requestOf(challenge, oauthChallenge)).state === 'pending';
      } catch (error) {
        if (error instanceof ApiError) return false;
        throw error;
      }
    },

    /** POST /api/v2/get-challenge for AUTHN_WEBAUTHN. */
    async start(body: GetChallengeBody, meta: VisitorMeta): Promise<DeviceLoginChallengeResponse> {
      if (!body.oauthChallenge) throw new ApiError(ErrorCode.RequiredField, 400, 'oauth_challenge');
      if (!body.username) throw new ApiError(ErrorCode.RequiredField, 400, 'username');
      const interaction = await interactionOf(body.oauthChallenge, meta.browser);
      const clientId = interactionClientId(interaction);
      if (body.clientId !== undefined && body.clientId !== clientId) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
      const flow = await flowOf(clientId);
      const username = normalizeUsername(body.username);
      if (!classifyClientUsername(ctx.log, flow.client, username, ['email', 'phone'])) {
        throw new ApiError(ErrorCode.UsernameInvalid, 400, 'username', `${body.username} has an invalid format`);
      }
      await consume(ctx.rateLimits.loginPerIp, meta.ip);
      await consume(ctx.rateLimits.loginPerAccount, accountBudgetKey(ctx.keys, 'webauthn', flow.tenant.id, username));

      const user = await ctx.users.findByUsername(flow.tenant.id, username);
      const devices = user ? await activeDevices(user.id) : [];
      // One answer for an unknown account and for one without an active device.
      if (!user || devices.length === 0) throw new ApiError(ErrorCode.NoActiveCredentials, 404);
      checkAccount(user);

      const options = await requestOptions(Buffer.from(newWebauthnChallenge()).toString('base64url'), devices);
      const challenge = randomToken(24);
      const redirectUrlKey = randomToken(32);
      const now = Date.now();
      await createWebauthnQueries(ctx.db).insertChallenge({
        id: challengeHash(ctx.keys, challenge),
        tenantId: flow.tenant.id,
        type: 'authn',
        userId: user.id,
        clientId,
        interactionUid: interaction.uid,
        webauthnChallenge: options.challenge,
        redirectKeyHash: redirectKeyHash(ctx.keys, redirectUrlKey),
        requesterIp: meta.ip,
        requesterUserAgent: meta.userAgent,
        expiresAt: now + ttls.deviceLoginMs,
        at: now,
      });
      const verifyUrl = `${ctx.config.publicUrl}/login/webauthn/verify-device?${new URLSearchParams({ challenge: interaction.uid, authnChallenge: challenge }).toString()}`;
      const qrCode = await qrCodeDataUrl(verifyUrl);
      return {
        challenge,
        expiresIn: Math.round(ttls.deviceLoginMs / 1000),
        verifyUrl,
        qrCode,
        challengeRequest: { redirectUrlKey, getRedirectUrlChallenge: challenge, publickeyCredentialRequestOptions: options },
      };
    },

    /**
     * GET /api/v2/device-login/{challenge}: what the verify-device page (second device) shows and asks
     * its authenticator, with where the request comes from: a link sent by someone else names a
     * browser and place the person does not recognise (`locale`: the language of the place name).
     */
    async info(challenge: string, oauthChallenge: string, locale: string): Promise<DeviceLoginInfo> {
      const row = await requestOf(challenge, oauthChallenge);
      if (row.state !== 'pending') throw expired();
      await interactionOf(oauthChallenge);
      const flow = await flowOf(row.client_id);
      const user = await ctx.users.findById(row.user_id);
      if (!user || !row.webauthn_challenge) throw expired();
      return {
        clientName: flow.client.name,
        username: maskDestination(user.email ?? user.phone_number ?? ''),
        expiresIn: Math.max(0, Math.ceil((row.expires_at - Date.now()) / 1000)),
        publickeyCredentialRequestOptions: await requestOptions(row.webauthn_challenge, await activeDevices(user.id)),
        requester: requesterOf(row, locale),
      };
    },

    /**
     * POST /api/v2/device-login/deny: "No, it's not me" on the device asked to approve. The request
     * can then be neither approved nor collected, so a link sent by a stranger cannot be approved
     * later by mistake, and the first device's poll stops waiting (1026).
     */
    async deny(body: DeviceLoginDenyBody, meta: VisitorMeta): Promise<{ denied: true }> {
      // As resolve: guessing requests to refuse them is no cheaper than guessing them to approve them.
      await consume(ctx.rateLimits.loginPerIp, meta.ip);
      const row = await requestOf(body.challenge, body.oauthChallenge);
      if (row.state !== 'pending') throw expired();
      if (!(await createWebauthnQueries(ctx.db).transition(row.id, 'pending', 'denied', Date.now()))) throw expired();
      await ctx.audit.record({ tenantId: row.tenant_id, clientId: row.client_id, userId: row.user_id, ip: meta.ip, userAgent: meta.userAgent, type: 'webauthn.login_denied' });
      return { denied: true };
    },

    /** POST /api/v2/resolve-challenge for AUTHN_WEBAUTHN: the assertion approves the request (400/1102 when it is not right). */
    async resolve(body: ResolveChallengeBody, meta: VisitorMeta): Promise<{ approved: true }> {
      if (!body.oauthChallenge) throw new ApiError(ErrorCode.RequiredField, 400, 'oauth_challenge');
      const assertion = body.publickeyCredential;
      if (!assertion) throw new ApiError(ErrorCode.RequiredField, 400, 'publickey_credential');
      await consume(ctx.rateLimits.loginPerIp, meta.ip);
      const row = await requestOf(body.challenge, body.oauthChallenge);
      if (row.state !== 'pending') throw expired();
      if (body.clientId !== undefined && body.clientId !== row.client_id) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
      await flowOf(row.client_id);
      const user = await ctx.users.findById(row.user_id);
      if (!user) throw expired();
      checkAccount(user);

      const event = { tenantId: row.tenant_id, clientId: row.client_id, userId: user.id, ip: meta.ip, userAgent: meta.userAgent };
      const refuse = async (reason: string): Promise<never> => {
        await ctx.audit.record({ ...event, type: 'webauthn.login_failed', details: { reason } });
        throw new ApiError(ErrorCode.NotAuthenticated, 400, 'publickey_credential', VERIFY_FAILED_MESSAGE);
      };
      const device = await createWebauthnQueries(ctx.db).findByCredentialId(row.tenant_id, assertion.id);
      if (!device || device.user_id !== user.id) return refuse('unknown_device');
      if (device.active !== 1) return refuse('inactive_device');

      let newCounter: number;
      try {
        const result = await (await loadWebAuthn()).verifyAuthenticationResponse({
          response: assertion as unknown as AuthenticationResponseJSON,
          expectedChallenge: row.webauthn_challenge ?? '',
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          credential: { id: device.credential_id, publicKey: new Uint8Array(device.public_key), counter: device.counter, transports: parseJson<string[]>(device.transports, []) },
          requireUserVerification: true,
        });
        if (!result.verified || !result.authenticationInfo.userVerified) return refuse('invalid_assertion');
        newCounter = result.authenticationInfo.newCounter;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        ctx.log.info({ userId: user.id, reason: refusalReason(error) }, 'a device assertion was refused');
        return refuse('invalid_assertion');
      }

      // Approve the request and move the counter on together: a replayed assertion (same counter) or a
      // second resolve of the request rolls back and changes nothing.
      try {
        await inTransaction(ctx.db, async (trx) => {
          const queries = createWebauthnQueries(trx);
          const now = Date.now();
          if (!(await queries.transition(row.id, 'pending', 'approved', now))) throw new NotApproved('used');
          if (!(await queries.recordUse(device.id, newCounter, now))) throw new NotApproved('replayed');
        });
      } catch (error) {
        if (!(error instanceof NotApproved)) throw error;
        if (error.reason === 'used') throw expired();
        return refuse('replayed_assertion');
      }
      return { approved: true };
    },

    /** POST /api/v2/device-login/poll: 409/1200 while pending; once approved, finishes the first device's sign-in (once). */
    async poll(body: DeviceLoginPollBody, meta: VisitorMeta): Promise<DeviceLoginPollResponse> {
      // Only the browser that started the sign-in collects it, and learns nothing before that.
      requireHeldInteraction(meta.browser, body.oauthChallenge);
      const row = await requestOf(body.challenge, body.oauthChallenge);
      if (!row.redirect_key_hash || !ctx.keys.hmacEquals('webauthn-redirect-key', body.redirectUrlKey, row.redirect_key_hash)) throw expired();
      if (row.state === 'pending') throw new ApiError(ErrorCode.Pending, 409);
      if (row.state !== 'approved') throw expired();
      const interaction = await interactionOf(body.oauthChallenge, meta.browser);
      await flowOf(row.client_id);
      const user = await ctx.users.findById(row.user_id);
      if (!user) throw expired();
      checkAccount(user);
      const now = Date.now();
      if (!(await createWebauthnQueries(ctx.db).transition(row.id, 'approved', 'consumed', now))) throw expired();
      await ctx.users.recordSuccessfulLogin(user.id, now);
      await ctx.audit.record({ tenantId: row.tenant_id, clientId: row.client_id, userId: user.id, ip: meta.ip, userAgent: meta.userAgent, type: 'webauthn.login' });
      // The key's possession and the person it verified (RFC 8176): both factors, as a passkey's.
      return { code: 'approved', redirectTo: await completeLogin(ctx.provider, interaction, user.id, PASSKEY_AMR) };
    },
  };
}
export type DeviceLoginService = ReturnType<typeof createDeviceLoginService>;
