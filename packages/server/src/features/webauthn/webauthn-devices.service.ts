import type { RegistrationResponseJSON, VerifiedRegistrationResponse } from '@simplewebauthn/server';
import { loadWebAuthn } from './webauthn-library.ts';
import {
  ErrorCode,
  type CodeChallengeResponse,
  type GetChallengeBody,
  type WebauthnCredentialList,
  type WebauthnRegisterBody,
  type WebauthnRegisterResponse,
  type WebauthnRegistrationOptions,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../db/schema.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import { parseJson } from '../../lib/json.ts';
import { ApiError } from '../../plugins/errors.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createDeviceCodeService, kindOfType } from './device-codes.service.ts';
import { createWebauthnQueries } from './webauthn.queries.ts';
import { DEFAULT_TTLS, challengeHash, newWebauthnChallenge, refusalReason, relyingPartyOf, rpNameOf, type WebauthnTtls } from './webauthn-rp.ts';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The credProps extension's answer: whether the browser made a discoverable credential (a passkey), or undefined when it does not say. */
function discoverableOf(results: Record<string, unknown>): boolean | undefined {
  const rk = (results.credProps as { rk?: unknown } | undefined)?.rk;
  return typeof rk === 'boolean' ? rk : undefined;
}

/**
 * The account area's devices (SPEC.md sections 2, 3, 4 and 7): the list, registration (the
 * attestation verified for real: origin, RP id, challenge), and the activation and deletion codes.
 * Every call needs the tenant's webauthnAllowed (1303). A new device is inactive until its
 * activation code is confirmed, and an inactive device never signs in.
 */
export function createWebauthnDevicesService(ctx: AppContext, options: { codes?: CodeService; ttls?: Partial<WebauthnTtls> } = {}) {
  const ttls: WebauthnTtls = { ...DEFAULT_TTLS, ...options.ttls };
  const codes = options.codes ?? createCodeService(ctx);
  const deviceCodes = createDeviceCodeService(ctx, codes, ttls);
  const rp = relyingPartyOf(ctx.config);

  /** The user's tenant, when it allows devices (else 1303). */
  async function allowedTenant(user: UserRow): Promise<TenantRecord> {
    const tenant = await ctx.tenants.findById(user.tenant_id);
    if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
    if (!tenant.webauthnAllowed) throw new ApiError(ErrorCode.TenantDisallows, 403);
    return tenant;
  }

  return {
    allowedTenant,
    deviceCodes,

    /** GET /api/v1/webauthn-credentials/me */
    async list(user: UserRow): Promise<WebauthnCredentialList> {
      await allowedTenant(user);
      const rows = await createWebauthnQueries(ctx.db).listForUser(user.id);
      return {
        items: rows.map((row) => ({
          id: row.id,
          deviceName: row.device_name,
          active: row.active === 1,
          createdAt: seconds(row.created_at),
          lastUsedAt: row.last_used_at === null ? null : seconds(row.last_used_at),
        })),
      };
    },

    /** GET /api/v1/webauthn-credentials/register: a registration ceremony (5 minutes, single use, this user's). */
    async registrationOptions(user: UserRow): Promise<WebauthnRegistrationOptions> {
      const tenant = await allowedTenant(user);
      const existing = await createWebauthnQueries(ctx.db).listForUser(user.id);
      const name = user.email ?? user.phone_number ?? user.id;
      const options = await (await loadWebAuthn()).generateRegistrationOptions({
        rpName: rpNameOf(tenant),
        rpID: rp.rpID,
        userName: name,
        userDisplayName: user.name ?? name,
        // The user handle: our (random) user id, no personal data.
        userID: new TextEncoder().encode(user.id),
        challenge: newWebauthnChallenge(),
        timeout: ttls.registrationMs,
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: parseJson<string[]>(row.transports, []) })),
        // Passkeys (issue 16): every device is a discoverable credential, so the Login screen's
        // autofill can offer it. A key that cannot store one (U2F-only) could not sign in anyway:
        // a device sign-in needs the person verified (device-login.service.ts), which such keys
        // cannot do. Devices registered before keep working through the device flow; credProps
        // tells which kind each device made.
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      });
      const challenge = randomToken(24);
      const now = Date.now();
      await createWebauthnQueries(ctx.db).insertChallenge({
        id: challengeHash(ctx.keys, challenge),
        tenantId: tenant.id,
        type: 'registration',
        userId: user.id,
        clientId: ACCOUNT_CLIENT_ID,
        webauthnChallenge: options.challenge,
        expiresAt: now + ttls.registrationMs,
        at: now,
      });
      return { challenge, options };
    },

    /**
     * POST /api/v1/webauthn-credentials/register?challenge=…: verifies the attestation, stores the
     * device inactive and sends its activation code at once. The ceremony is spent only when the
     * device is stored: a code that cannot be sent (503) leaves everything as it was.
     */
    async register(user: UserRow, ceremony: string, body: WebauthnRegisterBody, meta: VisitorMeta): Promise<WebauthnRegisterResponse> {
      const tenant = await allowedTenant(user);
      const queries = createWebauthnQueries(ctx.db);
      const ceremonyId = challengeHash(ctx.keys, ceremony);
      const row = await queries.findChallenge(ceremonyId);
      if (!row || row.type !== 'registration' || row.user_id !== user.id || row.state !== 'pending' || row.expires_at <= Date.now() || row.webauthn_challenge !== body.registrationChallenge) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      }
      const expectedChallenge = row.webauthn_challenge;

      let verified: VerifiedRegistrationResponse;
      try {
        verified = await (await loadWebAuthn()).verifyRegistrationResponse({
          response: body.publickeyCredential as unknown as RegistrationResponseJSON,
          expectedChallenge,
          expectedOrigin: rp.origin,
          expectedRPID: rp.rpID,
          requireUserVerification: false,
        });
      } catch (error) {
        ctx.log.info({ userId: user.id, reason: refusalReason(error) }, 'a device registration was refused');
        throw new ApiError(ErrorCode.InvalidField, 400, 'publickey_credential', 'The device registration could not be verified');
      }
      if (!verified.verified) throw new ApiError(ErrorCode.InvalidField, 400, 'publickey_credential', 'The device registration could not be verified');
      const { credential, credentialBackedUp } = verified.registrationInfo;
      const discoverable = discoverableOf(body.publickeyCredential.clientExtensionResults);
      if (await queries.findByCredentialId(tenant.id, credential.id)) throw new ApiError(ErrorCode.DeviceAlreadyRegistered, 409, 'publickey_credential');

      // Spend the ceremony first, so two posts of one registration cannot both store a device.
      if (!(await queries.transition(ceremonyId, 'pending', 'consumed', Date.now()))) throw new ApiError(ErrorCode.RequestExpired, 400, 'challenge');
      const webauthnCredentialId = newId();
      const deviceName = body.deviceName;
      try {
        const sent = await deviceCodes.issue(user, tenant, 'activation', webauthnCredentialId, meta, async (trx) => {
          const now = Date.now();
          await createWebauthnQueries(trx).insertCredential({
            id: webauthnCredentialId,
            tenantId: tenant.id,
            userId: user.id,
            credentialId: credential.id,
            publicKey: credential.publicKey,
            counter: credential.counter,
            transports: credential.transports ?? body.publickeyCredential.response.transports,
            deviceName,
            discoverable,
            backedUp: credentialBackedUp,
            at: now,
          });
          await createAuditQueries(trx).record(
            {
              type: 'webauthn.registered',
              tenantId: tenant.id,
              clientId: ACCOUNT_CLIENT_ID,
              userId: user.id,
              ip: meta.ip,
              userAgent: meta.userAgent,
              details: { deviceId: webauthnCredentialId, deviceName, ...(discoverable === undefined ? {} : { passkey: discoverable }) },
            },
            now,
          );
        });
        return { webauthnCredentialId, challenge: sent.challenge, channel: sent.channel, destination: sent.destination };
      } catch (error) {
        await queries.reopen(ceremonyId);
        // The same authenticator registered by a simultaneous request.
        if (isUniqueViolation(error)) throw new ApiError(ErrorCode.DeviceAlreadyRegistered, 409, 'publickey_credential');
        throw error;
      }
    },

    /** POST /api/v2/get-challenge for ACTIVATION_WEBAUTHN and DELETION_WEBAUTHN. */
    async codeChallenge(user: UserRow, body: GetChallengeBody & { challengeType: 'ACTIVATION_WEBAUTHN' | 'DELETION_WEBAUTHN' }, meta: VisitorMeta): Promise<CodeChallengeResponse> {
      const tenant = await allowedTenant(user);
      if (body.clientId !== undefined && body.clientId !== ACCOUNT_CLIENT_ID) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id is not the account client');
      if (!body.webauthnCredentialId) throw new ApiError(ErrorCode.RequiredField, 400, 'webauthn_credential_id');
      const device = await createWebauthnQueries(ctx.db).findForUser(user.id, body.webauthnCredentialId);
      if (!device) throw new ApiError(ErrorCode.InvalidField, 404, 'webauthn_credential_id', 'No such device');
      const kind = kindOfType(body.challengeType);
      if (kind === 'activation' && device.active === 1) throw new ApiError(ErrorCode.AlreadyActivated, 409, 'webauthn_credential_id', 'This device is already active');
      return deviceCodes.issue(user, tenant, kind, device.id, meta);
    },
  };
}
export type WebauthnDevicesService = ReturnType<typeof createWebauthnDevicesService>;
