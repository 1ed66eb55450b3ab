import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { ErrorCode, type PasskeyLoginBody, type PasskeyLoginResponse, type PasskeyOptionsBody, type PasskeyOptionsResponse } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { parseJson } from '../../lib/json.ts';
import type { ServerKeys } from '../../lib/server-keys.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountBudgetKey, consume, takeTry } from '../../plugins/rate-limits.ts';
import { requireCapability, requireTenantSwitch, resolveFlowClient, type FlowClient } from '../login-flow/flow-client.ts';
import { completeLogin, interactionClientId, loadInteraction, type Interaction } from '../login-flow/interactions.ts';
import { accountLocked } from '../login-flow/lockout.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { VERIFY_FAILED_MESSAGE } from './device-login.service.ts';
import { createPasskeyQueries } from './passkey.queries.ts';
import { createWebauthnQueries } from './webauthn.queries.ts';
import { loadWebAuthn } from './webauthn-library.ts';
import { newWebauthnChallenge, refusalReason, relyingPartyOf } from './webauthn-rp.ts';

/** How long the options of a passkey sign-in may be used; the Login screen asks for new ones before then. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * What a passkey sign-in adds to the finished sign-in's `amr` (RFC 8176): a hardware-secured key
 * (hwk), the person verified on the device (user), and so both factors at once (mfa), as a 2-step
 * sign-in says.
 */
export const PASSKEY_AMR = ['hwk', 'user', 'mfa'];

/** The stored id of a passkey challenge: its keyed hash, so the table never holds a usable challenge. */
const passkeyChallengeHash = (keys: ServerKeys, challenge: string): string => keys.hmac('passkey-challenge', challenge);

/** The challenge the authenticator signed, as its clientDataJSON says (checked again, for real, by the verification). */
function signedChallenge(credential: PasskeyLoginBody['publickeyCredential']): string | null {
  try {
    const clientData = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof clientData.challenge === 'string' && clientData.challenge.length > 0 && clientData.challenge.length <= 128 ? clientData.challenge : null;
  } catch {
    return null;
  }
}

/** The account id a discoverable credential names (its user handle is our user id), or null when it names none. */
function userHandleOf(credential: PasskeyLoginBody['publickeyCredential']): string | null {
  const handle = credential.response.userHandle;
  return handle ? Buffer.from(handle, 'base64url').toString('utf8') : null;
}

/**
 * Sign in with a passkey picked from the username field's autofill (WebAuthn conditional
 * mediation). The options carry no allowCredentials (any passkey of this site may answer) and a
 * random challenge bound to the sign-in request, held by this browser, and its client: stored only
 * as a keyed hash, 5 minutes, single use. The assertion names its credential, looked up in the
 * client's tenant only, and must carry user verification: a passkey sign-in counts as both
 * factors, so no 2-step follows. Needs the tenant's webauthnAllowed (1303) and the client's
 * webauthn:login (1301); locked (1302), unactivated (1011) and disabled (1012) accounts are
 * refused as in a password sign-in.
 */
export function createPasskeyLoginService(ctx: AppContext, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? PASSKEY_CHALLENGE_TTL_MS;
  const rp = relyingPartyOf(ctx.config);

  /** The sign-in request this browser holds (else 1026 on `challenge`), its client and what the client may do. */
  async function signInOf(body: { challenge: string; clientId?: string | undefined }, meta: VisitorMeta): Promise<{ interaction: Interaction; flow: FlowClient }> {
    const interaction = await loadInteraction(ctx.provider, body.challenge, meta.browser);
    const clientId = interactionClientId(interaction);
    if (body.clientId !== undefined && body.clientId !== clientId) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
    const flow = await resolveFlowClient(ctx, clientId);
    requireTenantSwitch(flow, 'webauthnAllowed');
    requireCapability(flow, 'webauthn:login');
    return { interaction, flow };
  }

  /** As a password sign-in: a locked account 1302, an unactivated one 1011, a disabled one 1012. */
  function checkAccount(user: UserRow): void {
    if (user.locked_until && user.locked_until > Date.now()) throw accountLocked(user.locked_until);
    if (user.status === 'pending') throw new ApiError(ErrorCode.NotActivated, 403);
    if (user.status !== 'active') throw new ApiError(ErrorCode.Disabled, 403);
  }

  return {
    /** POST /api/v2/passkey-login/options */
    async options(body: PasskeyOptionsBody, meta: VisitorMeta): Promise<PasskeyOptionsResponse> {
      const { interaction, flow } = await signInOf(body, meta);
      const options = await (await loadWebAuthn()).generateAuthenticationOptions({
        rpID: rp.rpID,
        challenge: newWebauthnChallenge(),
        // Empty: the browser offers every passkey it holds for this site.
        allowCredentials: [],
        userVerification: 'required',
        timeout: ttlMs,
      });
      const now = Date.now();
      await createPasskeyQueries(ctx.db).insertChallenge({
        id: passkeyChallengeHash(ctx.keys, options.challenge),
        tenantId: flow.tenant.id,
        clientId: flow.client.id,
        interactionUid: interaction.uid,
        expiresAt: now + ttlMs,
        at: now,
      });
      return { expiresIn: Math.floor(ttlMs / 1000), publickeyCredentialRequestOptions: options };
    },

    /** POST /api/v2/passkey-login: verifies the assertion and finishes the sign-in (`redirectTo`). */
    async login(body: PasskeyLoginBody, meta: VisitorMeta): Promise<PasskeyLoginResponse> {
      const { interaction, flow } = await signInOf(body, meta);
      await consume(ctx.rateLimits.loginPerIp, meta.ip);
      const credential = body.publickeyCredential;
      const event = { tenantId: flow.tenant.id, clientId: flow.client.id, ip: meta.ip, userAgent: meta.userAgent };
      const refuse = async (reason: string, userId: string | null, error = new ApiError(ErrorCode.NotAuthenticated, 400, 'publickey_credential', VERIFY_FAILED_MESSAGE)): Promise<never> => {
        await ctx.audit.record({ ...event, userId, type: 'webauthn.login_failed', details: { method: 'passkey', reason } });
        throw error;
      };

      // The challenge is spent before anything else is looked at: whatever follows, it never serves twice.
      const challenge = signedChallenge(credential);
      const now = Date.now();
      if (!challenge || !(await createPasskeyQueries(ctx.db).consumeChallenge(passkeyChallengeHash(ctx.keys, challenge), interaction.uid, flow.client.id, now))) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'publickey_credential', 'The passkey request has expired or was used, please retry');
      }

      // Only this tenant's credentials: another tenant's passkey is as unknown as a deleted one.
      const device = await createWebauthnQueries(ctx.db).findByCredentialId(flow.tenant.id, credential.id);
      if (!device) return refuse('unknown_passkey', null, new ApiError(ErrorCode.PasskeyUnknown, 400, 'publickey_credential'));
      const handle = userHandleOf(credential);
      if (handle !== null && handle !== device.user_id) return refuse('user_handle_mismatch', device.user_id);
      const giveBack = await takeTry(ctx.rateLimits.loginPerAccount, accountBudgetKey(ctx.keys, 'passkey', flow.tenant.id, device.user_id));
      const user = await ctx.users.findById(device.user_id);
      if (!user || user.tenant_id !== flow.tenant.id) return refuse('unknown_passkey', null, new ApiError(ErrorCode.PasskeyUnknown, 400, 'publickey_credential'));
      // An inactive device never signs in (its activation code was never confirmed).
      if (device.active !== 1) return refuse('inactive_device', user.id, new ApiError(ErrorCode.NoActiveCredentials, 400, 'publickey_credential'));

      let newCounter: number;
      try {
        const result = await (await loadWebAuthn()).verifyAuthenticationResponse({
          response: credential as unknown as AuthenticationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          credential: { id: device.credential_id, publicKey: new Uint8Array(device.public_key), counter: device.counter, transports: parseJson<string[]>(device.transports, []) },
          // Both factors in one: the device verified the person (PIN, fingerprint, face).
          requireUserVerification: true,
        });
        if (!result.verified || !result.authenticationInfo.userVerified) return refuse('invalid_assertion', user.id);
        newCounter = result.authenticationInfo.newCounter;
        // A verified assertion is no guess: a person signing in often with a passkey keeps the budget.
        await giveBack();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const reason = refusalReason(error);
        ctx.log.info({ userId: user.id, reason }, 'a passkey assertion was refused');
        return refuse(/user verification/i.test(reason) ? 'user_not_verified' : 'invalid_assertion', user.id);
      }

      try {
        checkAccount(user);
      } catch (error) {
        return refuse(user.status === 'active' ? 'locked' : `account_${user.status}`, user.id, error as ApiError);
      }
      // The counter moves on only while the device is active and only forward (a clone's or a replay's assertion does not).
      if (!(await createWebauthnQueries(ctx.db).recordUse(device.id, newCounter, Date.now()))) return refuse('replayed_assertion', user.id);

      await ctx.users.recordSuccessfulLogin(user.id, Date.now());
      await ctx.audit.record({ ...event, userId: user.id, type: 'webauthn.login', details: { method: 'passkey', deviceId: device.id } });
      return { redirectTo: await completeLogin(ctx.provider, interaction, user.id, PASSKEY_AMR) };
    },
  };
}
export type PasskeyLoginService = ReturnType<typeof createPasskeyLoginService>;
