import { ErrorCode, type CodeChallengeResponse, type ResolveChallengeBody, type ResolveChallengeResponse } from '@passgate/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database, UserRow, WebauthnChallengeRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { ApiError } from '../../plugins/errors.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { channelOf, deliverCode } from '../codes/code-delivery.ts';
import type { CodeService, CodeTarget } from '../codes/codes.service.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createWebauthnQueries } from './webauthn.queries.ts';
import { challengeHash, codeDestinationOf, maskDestination, type WebauthnTtls } from './webauthn-rp.ts';

export type CodeChallengeKind = 'activation' | 'deletion';

const PURPOSE = { activation: 'webauthn_activation', deletion: 'webauthn_deletion' } as const;
export const kindOfType = (type: 'ACTIVATION_WEBAUTHN' | 'DELETION_WEBAUTHN'): CodeChallengeKind => (type === 'ACTIVATION_WEBAUTHN' ? 'activation' : 'deletion');

const expired = () => new ApiError(ErrorCode.RequestExpired, 400, 'challenge');

/**
 * Activation and deletion codes of a device (SPEC.md sections 2 and 4): a challenge bound to the
 * user and the device (random, stored hashed, 10 minutes, single use) whose 6-digit code goes to
 * the account's e-mail address, else its phone. Codes come from the shared code service (keyed
 * hash, 5 tries, 60 s resend, per-address budget); a code that could not be sent leaves nothing stored.
 */
export function createDeviceCodeService(ctx: AppContext, codes: CodeService, ttls: WebauthnTtls) {
  const eventOf = (user: UserRow, meta: VisitorMeta) => ({ tenantId: user.tenant_id, clientId: ACCOUNT_CLIENT_ID, userId: user.id, ip: meta.ip, userAgent: meta.userAgent });
  const targetOf = (user: UserRow, kind: CodeChallengeKind): CodeTarget => ({ tenantId: user.tenant_id, purpose: PURPOSE[kind], destination: codeDestinationOf(user).to });

  /**
   * Sends a new code for the challenge `rowId`, then runs `save` (which stores the challenge when
   * it is new) and stores the code, in one transaction: when the code cannot be sent, nothing is.
   */
  async function sendCode(
    user: UserRow,
    tenant: TenantRecord,
    kind: CodeChallengeKind,
    rowId: string,
    meta: VisitorMeta,
    save?: (trx: Kysely<Database>) => Promise<void>,
  ): Promise<{ channel: 'email' | 'sms'; destination: string; resendAfter: number }> {
    const destination = codeDestinationOf(user);
    const target = targetOf(user, kind);
    // The code belongs to this challenge: another challenge of the same account cannot use it.
    await codes.sendToAccount({ ...target, userId: user.id, payload: JSON.stringify({ challenge: rowId }) }, meta.ip, {
      deliver: (code) => deliverCode(
        ctx,
        { kind: PURPOSE[kind], usernameKind: destination.kind, to: destination.to, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
        eventOf(user, meta),
      ),
      saveWith: save,
    });
    return { channel: channelOf(destination.kind), destination: maskDestination(destination.to), resendAfter: RESEND_COOLDOWN_SECONDS };
  }

  /** The user's open challenge of `kind` for the device, or 1026. */
  async function openChallenge(user: UserRow, challenge: string, kind: CodeChallengeKind, now: number): Promise<WebauthnChallengeRow> {
    const row = await createWebauthnQueries(ctx.db).findChallenge(challengeHash(ctx.keys, challenge));
    if (!row || row.type !== kind || row.user_id !== user.id || row.state !== 'pending' || row.expires_at <= now || !row.credential_id) throw expired();
    return row;
  }

  return {
    sendCode,

    /**
     * A new challenge for the device, its code sent, run inside the caller's ceremony (registration
     * creates the device in `save`). Answers the challenge id to hand out.
     */
    async issue(
      user: UserRow,
      tenant: TenantRecord,
      kind: CodeChallengeKind,
      credentialId: string,
      meta: VisitorMeta,
      before: (trx: Kysely<Database>) => Promise<void> = async () => undefined,
    ): Promise<CodeChallengeResponse> {
      const challenge = randomToken(24);
      const id = challengeHash(ctx.keys, challenge);
      const now = Date.now();
      const sent = await sendCode(user, tenant, kind, id, meta, async (trx) => {
        await before(trx);
        await createWebauthnQueries(trx).insertChallenge({
          id,
          tenantId: user.tenant_id,
          type: kind,
          userId: user.id,
          clientId: ACCOUNT_CLIENT_ID,
          credentialId,
          expiresAt: now + ttls.codeMs,
          at: now,
        });
      });
      return { challenge, ...sent };
    },

    /** POST /api/v2/resend-challenge: a new code for the same open challenge (the old code is replaced). */
    async resend(user: UserRow, tenant: TenantRecord, challenge: string, meta: VisitorMeta): Promise<CodeChallengeResponse> {
      const row = await createWebauthnQueries(ctx.db).findChallenge(challengeHash(ctx.keys, challenge));
      if (!row || (row.type !== 'activation' && row.type !== 'deletion')) throw expired();
      const open = await openChallenge(user, challenge, row.type, Date.now());
      return { challenge, ...(await sendCode(user, tenant, row.type, open.id, meta)) };
    },

    /** POST /api/v2/resolve-challenge for ACTIVATION_WEBAUTHN and DELETION_WEBAUTHN. */
    async resolve(user: UserRow, kind: CodeChallengeKind, body: ResolveChallengeBody, meta: VisitorMeta): Promise<ResolveChallengeResponse> {
      if (!body.code) throw new ApiError(ErrorCode.RequiredField, 400, 'code');
      if (!body.webauthnCredentialId) throw new ApiError(ErrorCode.RequiredField, 400, 'webauthn_credential_id');
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
      const row = await openChallenge(user, body.challenge, kind, Date.now());
      if (row.credential_id !== body.webauthnCredentialId) throw expired();

      const check = await codes.verify(targetOf(user, kind), body.code, { keep: true });
      if (check.result === 'wrong') throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
      const payload = check.result === 'ok' && check.payload ? (JSON.parse(check.payload) as { challenge?: string }) : {};
      if (check.result === 'expired' || payload.challenge !== row.id) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');

      const credentialId = body.webauthnCredentialId;
      await inTransaction(ctx.db, async (trx) => {
        const now = Date.now();
        const queries = createWebauthnQueries(trx);
        if (!(await codes.consume(check.codeId, trx)) || !(await queries.transition(row.id, 'pending', 'consumed', now))) throw expired();
        const done = kind === 'activation' ? await queries.activate(user.id, credentialId) : await queries.deleteCredential(user.id, credentialId);
        // Activated or deleted meanwhile by another request.
        if (!done) throw expired();
        await createAuditQueries(trx).record({ ...eventOf(user, meta), type: kind === 'activation' ? 'webauthn.activated' : 'webauthn.deleted', details: { deviceId: credentialId } }, now);
      });
      return kind === 'activation' ? { webauthnCredentialId: credentialId, active: true } : { webauthnCredentialId: credentialId, deleted: true };
    },
  };
}
export type DeviceCodeService = ReturnType<typeof createDeviceCodeService>;
