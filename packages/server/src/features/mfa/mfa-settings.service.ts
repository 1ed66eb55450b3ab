import {
  BACKUP_CODE_COUNT,
  ErrorCode,
  type BackupCodesResponse,
  type BackupCodesStatus,
  type MfaAssociateResponse,
  type MfaConfigResponse,
  type MfaConfirmResponse,
  type Profile,
  type TokenType,
} from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { Kysely } from 'kysely';
import type { Database, UserRow, UserUpdate } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { createAuditQueries, type AuditEvent } from '../audit/audit.queries.ts';
import { createCodeService, type CodeService, type CodeTarget } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { toProfile } from '../account/profile.ts';
import { recheckPassword } from '../account/password-recheck.ts';
import { newBackupCodeSet } from './backup-codes.ts';
import { createBackupCodeQueries } from './backup-codes.queries.ts';
import { forgetRememberedBrowsers } from './remembered-browsers.queries.ts';
import { mfaTypeOf } from './mfa-login.service.ts';
import { newTotpSecret, totpEnrollment, totpStep } from './totp.ts';

export const MFA_NOT_SUPPORTED_MESSAGE = 'Registration does not support 2-Step Verification';
export const PHONE_FIRST_MESSAGE = 'Active your phone number first';
export const EMAIL_FIRST_MESSAGE = 'Active your email first';
export const MFA_OFF_MESSAGE = '2-Step Verification is off: turn it on first';

/**
 * Turns 2-step verification off: forgets the authenticator secret (active and pending), the backup
 * codes and the remembered browsers and, when it was on, records mfa.disabled with `event` (its
 * details merged), in one transaction. The one place 2-step goes off: the account area's disable
 * and the admin console's 'turn 2-step off' both come here. Answers the method it had.
 */
export async function turnTwoStepOff(ctx: Pick<AppContext, 'db'>, user: UserRow, event: Omit<AuditEvent, 'type'>): Promise<TokenType | null> {
  const previous = mfaTypeOf(user);
  const now = Date.now();
  await inTransaction(ctx.db, async (trx) => {
    await createUserQueries(trx).update(user.id, { enable_mfa: 0, authenticator_type: null, totp_secret_enc: null, totp_pending_enc: null, totp_last_step: null, updated_at: now });
    await createBackupCodeQueries(trx).deleteAll(user.id);
    await forgetRememberedBrowsers(trx, user.id);
    if (previous) await createAuditQueries(trx).record({ ...event, type: 'mfa.disabled', details: { tokenType: previous, ...event.details } }, now);
  });
  return previous;
}

/**
 * The account area's 2-step verification settings (SPEC.md sections 4, 6 and 7). Every call
 * re-checks the password (argon2), within the per-account sign-in budget; accounts that do not
 * sign in with a password (registered by phone code or a social provider) cannot use 2-step (1301).
 * A new authenticator secret is kept encrypted and pending until a code from it is confirmed.
 */
export function createMfaSettingsService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const eventOf = (user: UserRow, meta: VisitorMeta) => ({ tenantId: user.tenant_id, clientId: ACCOUNT_CLIENT_ID, userId: user.id, ip: meta.ip, userAgent: meta.userAgent });
  const setupTarget = (user: UserRow, destination: string): CodeTarget => ({ tenantId: user.tenant_id, purpose: 'mfa_setup', destination });

  async function checkPassword(user: UserRow, password: string, meta: VisitorMeta): Promise<void> {
    if (user.registration_method !== 'password' || !user.password_hash) throw new ApiError(ErrorCode.ClientLacksPermission, 403, undefined, MFA_NOT_SUPPORTED_MESSAGE);
    await recheckPassword(ctx, { ...user, password_hash: user.password_hash }, password, meta);
  }

  /** The verified phone number or e-mail address codes of `type` go to, or 400 telling what to do first. */
  function destinationFor(user: UserRow, type: 'sms' | 'email'): string {
    if (type === 'sms') {
      if (!user.phone_number || user.phone_number_verified !== 1) throw new ApiError(ErrorCode.InvalidField, 400, 'authenticator_type', PHONE_FIRST_MESSAGE);
      return user.phone_number;
    }
    if (!user.email || user.email_verified !== 1) throw new ApiError(ErrorCode.InvalidField, 400, 'authenticator_type', EMAIL_FIRST_MESSAGE);
    return user.email;
  }

  async function tenantOf(user: UserRow): Promise<TenantRecord> {
    const tenant = await ctx.tenants.findById(user.tenant_id);
    if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
    return tenant;
  }

  async function profileOf(userId: string): Promise<Profile> {
    const updated = await ctx.users.findById(userId);
    if (!updated) throw new ApiError(ErrorCode.NotAuthenticated, 401);
    return toProfile(updated, ctx.config.publicUrl);
  }

  /**
   * Turns 2-step on with `type` (replacing any earlier method), audited, in one transaction with
   * `before`. Turning it on (not changing the method) also makes the backup codes, answered here
   * and never again: changing the method keeps the codes the user already holds.
   */
  async function enable(user: UserRow, type: TokenType, changes: UserUpdate, meta: VisitorMeta, before?: (trx: Kysely<Database>) => Promise<void>): Promise<string[] | undefined> {
    const previous = mfaTypeOf(user);
    const now = Date.now();
    const backup = previous ? undefined : newBackupCodeSet(ctx.keys, user.id);
    await inTransaction(ctx.db, async (trx) => {
      if (before) await before(trx);
      await createUserQueries(trx).update(user.id, { enable_mfa: 1, authenticator_type: type, totp_pending_enc: null, updated_at: now, ...changes });
      // A new enrolment (on, or another method): no browser remembered under the old one skips it.
      await forgetRememberedBrowsers(trx, user.id);
      const audit = createAuditQueries(trx);
      await audit.record(
        previous ? { ...eventOf(user, meta), type: 'mfa.method_changed', details: { from: previous, to: type } } : { ...eventOf(user, meta), type: 'mfa.enabled', details: { tokenType: type } },
        now,
      );
      if (backup) {
        await createBackupCodeQueries(trx).replaceAll(user.id, backup.hashes, now);
        await audit.record({ ...eventOf(user, meta), type: 'mfa.backup_codes_generated', details: { count: backup.hashes.length, reason: 'enabled' } }, now);
      }
    });
    return backup?.codes;
  }

  async function confirmed(userId: string, backupCodes: string[] | undefined): Promise<MfaConfirmResponse> {
    const profile = await profileOf(userId);
    return backupCodes ? { ...profile, backupCodes } : profile;
  }

  return {
    /** POST /api/v1/me/mfa/config: the password re-check before the security settings. */
    async config(user: UserRow, password: string, meta: VisitorMeta): Promise<MfaConfigResponse> {
      await checkPassword(user, password, meta);
      return { enabledMfa: mfaTypeOf(user) !== null, authenticatorType: mfaTypeOf(user) };
    },

    /** POST /api/v1/me/mfa/associate: a pending authenticator secret (QR code), or a code by SMS or e-mail. */
    async associate(user: UserRow, password: string, type: TokenType, meta: VisitorMeta): Promise<MfaAssociateResponse> {
      await checkPassword(user, password, meta);
      const tenant = await tenantOf(user);
      if (type === 'totp') {
        const secret = newTotpSecret();
        await ctx.users.update(user.id, { totp_pending_enc: ctx.keys.encrypt(secret), updated_at: Date.now() });
        const label = user.email ?? user.phone_number ?? user.id;
        const { otpauthUri, qrcode } = await totpEnrollment(secret, tenant.brandName || 'Passgate', label);
        return { success: true, qrcode, secret, otpauthUri };
      }
      const destination = destinationFor(user, type);
      const target = setupTarget(user, destination);
      await codes.sendToAccount({ ...target, userId: user.id, payload: JSON.stringify({ tokenType: type }) }, meta.ip, {
        deliver: (code) => deliverCode(
          ctx,
          { kind: 'mfa_setup', usernameKind: type === 'email' ? 'email' : 'phone', to: destination, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
          eventOf(user, meta),
        ),
      });
      return { success: true, resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    /** POST /api/v1/me/mfa/confirm: the code from the new method turns 2-step on with it. */
    async confirm(user: UserRow, password: string, type: TokenType, code: string, meta: VisitorMeta): Promise<MfaConfirmResponse> {
      await checkPassword(user, password, meta);
      if (type === 'totp') {
        if (!user.totp_pending_enc) throw new ApiError(ErrorCode.RequestExpired, 400, 'code', 'Set up the authenticator app first');
        const secret = ctx.keys.decrypt(user.totp_pending_enc);
        const step = totpStep(secret, code);
        if (step === null) {
          await ctx.audit.record({ ...eventOf(user, meta), type: 'mfa.failure', details: { tokenType: type, reason: 'setup_wrong_code' } });
          throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
        }
        // The setup code is spent too: it cannot sign in afterwards.
        return confirmed(user.id, await enable(user, type, { totp_secret_enc: user.totp_pending_enc, totp_last_step: step }, meta));
      }
      const destination = destinationFor(user, type);
      const check = await codes.verify(setupTarget(user, destination), code, { keep: true });
      if (check.result === 'wrong') {
        await ctx.audit.record({ ...eventOf(user, meta), type: 'mfa.failure', details: { tokenType: type, reason: 'setup_wrong_code' } });
        throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
      }
      const payload = check.result === 'ok' && check.payload ? (JSON.parse(check.payload) as { tokenType?: string }) : {};
      if (check.result === 'expired' || check.userId !== user.id || payload.tokenType !== type) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      const backupCodes = await enable(user, type, { totp_secret_enc: null, totp_last_step: null }, meta, async (trx) => {
        if (!(await codes.consume(check.codeId, trx))) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
      });
      return confirmed(user.id, backupCodes);
    },

    /** POST /api/v1/me/mfa/disable: turns 2-step off, forgets the authenticator secret and deletes the backup codes. */
    async disable(user: UserRow, password: string, meta: VisitorMeta): Promise<Profile> {
      await checkPassword(user, password, meta);
      await turnTwoStepOff(ctx, user, eventOf(user, meta));
      return profileOf(user.id);
    },

    /** GET /api/v1/me/mfa/backup-codes: how many codes are left (a count only, so no password re-check). */
    async backupCodesStatus(user: UserRow): Promise<BackupCodesStatus> {
      const remaining = mfaTypeOf(user) ? await createBackupCodeQueries(ctx.db).countUnused(user.id) : 0;
      return { remaining, total: BACKUP_CODE_COUNT };
    },

    /** POST /api/v1/me/mfa/backup-codes: a new set replaces every earlier code, used or not. */
    async regenerateBackupCodes(user: UserRow, password: string, meta: VisitorMeta): Promise<BackupCodesResponse> {
      await checkPassword(user, password, meta);
      if (!mfaTypeOf(user)) throw new ApiError(ErrorCode.BadRequest, 400, undefined, MFA_OFF_MESSAGE);
      const backup = newBackupCodeSet(ctx.keys, user.id);
      const now = Date.now();
      await inTransaction(ctx.db, async (trx) => {
        await createBackupCodeQueries(trx).replaceAll(user.id, backup.hashes, now);
        await createAuditQueries(trx).record({ ...eventOf(user, meta), type: 'mfa.backup_codes_generated', details: { count: backup.hashes.length, reason: 'regenerated' } }, now);
      });
      return { backupCodes: backup.codes, remaining: backup.codes.length, total: BACKUP_CODE_COUNT };
    },
  };
}
export type MfaSettingsService = ReturnType<typeof createMfaSettingsService>;
