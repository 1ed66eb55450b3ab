import { deletionCodeRecipientOf, ErrorCode, isDeletionConfirmed, type AccountDeletionBody, type CodeSentResponse } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createAuditQueries, type AuditEvent } from '../audit/audit.queries.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { createCodeService, type CodeService, type CodeTarget } from '../codes/codes.service.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { createAvatarQueries } from './avatars.queries.ts';
import { createWebauthnQueries } from '../webauthn/webauthn.queries.ts';
import { recheckPassword } from './password-recheck.ts';
import { toProfile } from './profile.ts';

export const NO_CODE_RECIPIENT_MESSAGE = 'The account has no verified e-mail address or phone number to send a code to';
export const CONFIRMATION_MISMATCH_MESSAGE = 'The confirmation is not the account’s e-mail address or phone number';

/**
 * Deletes an account for good, once whoever asks has proven they may (its owner, or an admin): one
 * transaction deletes the user row (its password history and one-time codes go with it by ON
 * DELETE CASCADE), its avatar, its WebAuthn devices, and, when the provider's artifacts live in the
 * database, every session, grant, token and code of the account, and records account.deleted with
 * `event`; `before` runs first in it. With Redis those are deleted as well (inside, and once more
 * after the commit, in case the provider wrote one meanwhile). The account area's deletion and the
 * admin console's both come here.
 */
export async function eraseAccount(ctx: AppContext, user: UserRow, event: Omit<AuditEvent, 'type'>, before?: (trx: Kysely<Database>) => Promise<void>): Promise<void> {
  const now = Date.now();
  const loggedOut = await inTransaction(ctx.db, async (trx) => {
    if (before) await before(trx);
    await createAvatarQueries(trx).deleteForUser(user.id);
    await createWebauthnQueries(trx).deleteForUser(user.id);
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
    const notice = await ctx.backchannelLogout.noticeFor(user.id, trx);
    await ctx.oidcStore.forgetAccount(user.id, trx);
    // No personal data: the (random) user id ties the record to the account's earlier events.
    await createAuditQueries(trx).record({ ...event, type: 'account.deleted' }, now);
    return notice;
  });
  // The relying parties signed in through the account's sessions are told (back-channel logout).
  void ctx.backchannelLogout.send(loggedOut);
  try {
    await ctx.oidcStore.forgetAccount(user.id);
  } catch (error) {
    // Whatever is left refers to an account that no longer exists: the provider refuses it.
    ctx.log.warn({ userId: user.id, reason: error instanceof Error ? error.message : String(error) }, 'provider artifacts of a deleted account could not be deleted');
  }
}

/**
 * DELETE /api/v1/me: the account is deleted for good, once the request proves it comes from its
 * owner (a bearer token alone, say a stolen one, is not enough): the typed confirmation, and the
 * password of an account that has one, else a code sent to its verified e-mail address or phone.
 *
 * One transaction deletes the user row (its password history and one-time codes go with it by ON
 * DELETE CASCADE), its avatar, its WebAuthn devices, and, when the provider's artifacts live in the
 * database, every session, grant, token and code of the account. With Redis those are deleted as
 * well (inside, and once more after the commit, in case the provider wrote one meanwhile). Signing
 * in afterwards fails as for an unknown account.
 */
export function createAccountDeletionService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const eventOf = (user: UserRow, meta: VisitorMeta) => ({ tenantId: user.tenant_id, clientId: ACCOUNT_CLIENT_ID, userId: user.id, ip: meta.ip, userAgent: meta.userAgent });

  /** The code's target: the account's verified e-mail address, else its verified phone number. */
  function codeTargetOf(user: UserRow): (CodeTarget & { channel: 'email' | 'phone' }) | null {
    const recipient = deletionCodeRecipientOf(toProfile(user, ctx.config.publicUrl));
    return recipient && { tenantId: user.tenant_id, purpose: 'account_deletion', destination: recipient.to, channel: recipient.channel };
  }

  /** The password, or the code; answers the code's id to consume with the deletion. */
  async function prove(user: UserRow, body: AccountDeletionBody, meta: VisitorMeta): Promise<string | null> {
    const event = eventOf(user, meta);
    if (user.password_hash !== null) {
      if (!body.password) throw new ApiError(ErrorCode.RequiredField, 400, 'password', 'The password is required');
      try {
        await recheckPassword(ctx, { ...user, password_hash: user.password_hash }, body.password, meta);
      } catch (error) {
        if (error instanceof ApiError && error.code === ErrorCode.WrongCredentials) {
          await ctx.audit.record({ ...event, type: 'account.deletion_refused', details: { reason: 'wrong_password' } });
        }
        throw error;
      }
      return null;
    }
    const target = codeTargetOf(user);
    if (!target) throw new ApiError(ErrorCode.NoActiveCredentials, 400, undefined, NO_CODE_RECIPIENT_MESSAGE);
    if (!body.code) throw new ApiError(ErrorCode.RequiredField, 400, 'code', 'The code is required');
    await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
    const check = await codes.verify(target, body.code, { keep: true });
    if (check.result === 'wrong') {
      await ctx.audit.record({ ...event, type: 'code.failed', details: { purpose: 'account_deletion' } });
      throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
    }
    if (check.result === 'expired' || check.userId !== user.id) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
    return check.codeId;
  }

  return {
    /** POST /api/v1/me/deletion/code: the code an account without a password proves itself with. */
    async sendCode(user: UserRow, meta: VisitorMeta): Promise<CodeSentResponse> {
      if (user.password_hash !== null) throw new ApiError(ErrorCode.InvalidField, 400, 'password', 'The account has a password: delete it with the password');
      const target = codeTargetOf(user);
      if (!target) throw new ApiError(ErrorCode.NoActiveCredentials, 400, undefined, NO_CODE_RECIPIENT_MESSAGE);
      const tenant = await ctx.tenants.findById(user.tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
      await codes.sendToAccount({ tenantId: target.tenantId, purpose: target.purpose, destination: target.destination, userId: user.id }, meta.ip, {
        deliver: (code) =>
          deliverCode(
            ctx,
            { kind: 'account_deletion', usernameKind: target.channel, to: target.destination, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
            eventOf(user, meta),
          ),
      });
      return { resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    async deleteAccount(user: UserRow, body: AccountDeletionBody, meta: VisitorMeta): Promise<void> {
      // The confirmation first: a slip of the keyboard costs no password try.
      if (!isDeletionConfirmed(toProfile(user, ctx.config.publicUrl), body.confirmation)) {
        throw new ApiError(ErrorCode.InvalidField, 400, 'confirmation', CONFIRMATION_MISMATCH_MESSAGE);
      }
      const codeId = await prove(user, body, meta);
      await eraseAccount(ctx, user, eventOf(user, meta), async (trx) => {
        // The code is spent with the deletion, so two requests with one code delete once.
        if (codeId && !(await codes.consume(codeId, trx))) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      });
    },
  };
}
