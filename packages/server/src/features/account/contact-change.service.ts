import { ErrorCode, isEmail, isPhoneNumber, normalizeUsername, type CodeSentResponse, type Profile } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { UserRow, UserUpdate } from '../../db/schema.ts';
import { ApiError } from '../../plugins/errors.ts';
import { consume, RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { scrubProviderText } from '../../lib/redact.ts';
import { changeNotice, messageLocale, type ChangeNoticeKind } from '../../messaging/templates/templates.ts';
import { createAuditQueries, type AuditEventType } from '../audit/audit.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { createCodeService, type CodeService, type CodeTarget } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { inBackground } from '../known-browsers/notice-delivery.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { toProfile } from './profile.ts';

export type ContactKind = 'email' | 'phone';

interface KindRules {
  purpose: CodeTarget['purpose'];
  /** The field named in errors (snake_case, as sent). */
  field: string;
  invalid: ErrorCode;
  taken: ErrorCode;
  notice: ChangeNoticeKind;
  audit: AuditEventType;
  current(user: UserRow): string | null;
  isValid(value: string): boolean;
  set(value: string): UserUpdate;
}

const RULES: Record<ContactKind, KindRules> = {
  email: {
    purpose: 'email_change',
    field: 'email',
    invalid: ErrorCode.EmailInvalid,
    taken: ErrorCode.EmailTaken,
    notice: 'email_changed',
    audit: 'email.changed',
    current: (user) => user.email,
    isValid: isEmail,
    set: (value) => ({ email: value, email_verified: 1 }),
  },
  phone: {
    purpose: 'phone_change',
    field: 'phone_number',
    invalid: ErrorCode.PhoneInvalid,
    taken: ErrorCode.PhoneTaken,
    notice: 'phone_changed',
    audit: 'phone.changed',
    current: (user) => user.phone_number,
    isValid: isPhoneNumber,
    set: (value) => ({ phone_number: value, phone_number_verified: 1 }),
  },
};

/** Accounts whose e-mail address comes from (and is managed by) a social identity provider. */
const SOCIAL_METHODS = new Set(['google', 'facebook', 'apple']);

/**
 * POST /api/v1/me/{email,phoneNumber}/verify and …/update (SPEC.md sections 4 and 7): a code is
 * sent to the NEW address or number; only that code changes the account, which then holds the new
 * value as verified. The old address or number gets a notice of the change (never a code).
 */
export function createContactChangeService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  /** The new value, checked: format (1016/1015), 1021 for a social account's e-mail, not the current value (1002). */
  function checkValue(kind: ContactKind, user: UserRow, raw: string): string {
    const rules = RULES[kind];
    const value = kind === 'email' ? normalizeUsername(raw) : raw.trim();
    if (!rules.isValid(value)) throw new ApiError(rules.invalid, 400, rules.field, `${raw} has an invalid format`);
    if (kind === 'email' && user.email && SOCIAL_METHODS.has(user.registration_method)) {
      throw new ApiError(ErrorCode.EmailAlreadySet, 409, rules.field);
    }
    if (rules.current(user) === value) {
      throw new ApiError(ErrorCode.InvalidField, 400, rules.field, `The new ${kind === 'email' ? 'e-mail address' : 'phone number'} is the current one`);
    }
    return value;
  }

  /** 1020 / 1019 (409) when another account of the tenant holds the value (whatever its state). */
  async function ensureFree(kind: ContactKind, user: UserRow, value: string): Promise<void> {
    const holder = kind === 'email' ? await ctx.users.findByEmail(user.tenant_id, value) : await ctx.users.findByPhone(user.tenant_id, value);
    if (holder && holder.id !== user.id) throw new ApiError(RULES[kind].taken, 409, RULES[kind].field);
  }

  async function tenantOf(user: UserRow): Promise<TenantRecord> {
    const tenant = await ctx.tenants.findById(user.tenant_id);
    if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404);
    return tenant;
  }

  const eventOf = (user: UserRow, meta: VisitorMeta) => ({ tenantId: user.tenant_id, clientId: ACCOUNT_CLIENT_ID, userId: user.id, ip: meta.ip, userAgent: meta.userAgent });
  const targetOf = (kind: ContactKind, user: UserRow, value: string): CodeTarget => ({ tenantId: user.tenant_id, purpose: RULES[kind].purpose, destination: value });

  /** The notice to the old address or number; a failure is logged, not answered: the change is made. Never rejects. */
  async function sendNotice(kind: ContactKind, user: UserRow, oldValue: string, tenant: TenantRecord, meta: VisitorMeta): Promise<void> {
    const message = changeNotice({ kind: RULES[kind].notice, locale: messageLocale(user.locale, meta.locale), brand: tenant.brandName || tenant.name, name: user.name });
    try {
      if (kind === 'email') await ctx.messaging.mail.send({ to: oldValue, subject: message.subject, text: message.text, html: message.html });
      else await ctx.messaging.sms.send({ to: oldValue, text: message.sms });
    } catch (error) {
      ctx.log.warn({ tenantId: tenant.id, userId: user.id, notice: RULES[kind].notice, reason: scrubProviderText(error instanceof Error ? error.message : String(error)) }, 'a change notice could not be sent');
    }
  }

  return {
    async sendCode(kind: ContactKind, user: UserRow, raw: string, meta: VisitorMeta): Promise<CodeSentResponse> {
      const value = checkValue(kind, user, raw);
      await ensureFree(kind, user, value);
      const tenant = await tenantOf(user);
      const target = targetOf(kind, user, value);
      await codes.sendToAccount({ ...target, userId: user.id, payload: JSON.stringify({ userId: user.id }) }, meta.ip, {
        deliver: (code) => deliverCode(
          ctx,
          { kind: RULES[kind].purpose, usernameKind: kind, to: value, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
          eventOf(user, meta),
        ),
      });
      return { resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    async update(kind: ContactKind, user: UserRow, raw: string, code: string, meta: VisitorMeta): Promise<Profile> {
      const rules = RULES[kind];
      const value = checkValue(kind, user, raw);
      // Checked again: another account may have taken the value since the code was sent (a race
      // after this check is caught by the unique index below).
      await ensureFree(kind, user, value);
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
      const event = eventOf(user, meta);
      // Consumed in the transaction that makes the change.
      const check = await codes.verify(targetOf(kind, user, value), code, { keep: true });
      if (check.result === 'wrong') {
        await ctx.audit.record({ ...event, type: 'code.failed', details: { purpose: rules.purpose } });
        throw new ApiError(ErrorCode.CodeInvalid, 400, 'code');
      }
      if (check.result === 'expired' || check.userId !== user.id) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');

      const now = Date.now();
      try {
        await inTransaction(ctx.db, async (trx) => {
          if (!(await codes.consume(check.codeId, trx))) throw new ApiError(ErrorCode.RequestExpired, 400, 'code');
          await createUserQueries(trx).update(user.id, { ...rules.set(value), updated_at: now });
          await createAuditQueries(trx).record({ ...event, type: rules.audit, details: { hadPrevious: rules.current(user) !== null } }, now);
        });
      } catch (error) {
        // Another account took the value between the check and the update.
        if (isUniqueViolation(error)) throw new ApiError(rules.taken, 409, rules.field);
        throw error;
      }

      const oldValue = rules.current(user);
      // In the background, like the other security notices: the change is made, and a mail server
      // or SMS provider that hangs must not hold its answer for the send's 10 s.
      if (oldValue) inBackground(ctx, 'the change notice', async () => sendNotice(kind, user, oldValue, await tenantOf(user), meta));
      const updated = await ctx.users.findById(user.id);
      if (!updated) throw new ApiError(ErrorCode.NotAuthenticated, 401);
      return toProfile(updated, ctx.config.publicUrl);
    },
  };
}
export type ContactChangeService = ReturnType<typeof createContactChangeService>;
