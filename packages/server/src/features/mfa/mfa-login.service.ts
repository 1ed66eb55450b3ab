import { ErrorCode, type CodeSentResponse, type MfaLoginBody, type MfaTriggerBody, type TokenType } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { MfaTokenRow, UserRow } from '../../db/schema.ts';
import { randomToken } from '../../lib/ids.ts';
import { ApiError } from '../../plugins/errors.ts';
import { accountBudgetKey, consume, RESEND_COOLDOWN_SECONDS, takeTry } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { createCodeService, type CodeService, type CodeTarget } from '../codes/codes.service.ts';
import { deliverCode } from '../codes/code-delivery.ts';
import { inTransaction } from '../tenants/tenants.service.ts';
import { completeLogin, interactionClientId, loadInteraction, requireHeldInteraction } from '../login-flow/interactions.ts';
import type { VisitorMeta } from '../login-flow/visitor-input.ts';
import { hashBackupCode } from './backup-codes.ts';
import { createBackupCodeQueries } from './backup-codes.queries.ts';
import { createMfaQueries } from './mfa.queries.ts';
import { totpStep } from './totp.ts';
import { createRememberedBrowsers } from './remembered-browsers.ts';
import type { RequestMeta } from '../login-flow/login-flow.service.ts';

/** DESIGN.md section 7: short-lived. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;
/** Wrong codes one MFA token takes before it is dead (the password step must be done again). */
export const MFA_TOKEN_MAX_ATTEMPTS = 5;

const TOKEN_TYPES: readonly string[] = ['totp', 'sms', 'email'];

/** The second step an account asks for at sign-in, or null when 2-step verification is off. */
export function mfaTypeOf(user: UserRow): TokenType | null {
  if (user.enable_mfa !== 1 || !user.authenticator_type || !TOKEN_TYPES.includes(user.authenticator_type)) return null;
  return user.authenticator_type as TokenType;
}

/** Where the SMS or e-mail code of the second step goes. */
function destinationOf(user: UserRow, type: TokenType): string | null {
  if (type === 'sms') return user.phone_number;
  if (type === 'email') return user.email;
  return null;
}

/** What a sign-in began with, before any second step. */
export type FirstFactor = 'pwd' | 'passwordless' | 'google' | 'facebook';

/**
 * Authentication methods (RFC 8176) each step adds to the finished sign-in's `amr`. `otp` is kept
 * for what the person holds offline (the authenticator app, a backup code written down), `sms`
 * for a code texted to the phone and `email` for one mailed: the admin console and an admin's
 * factor changes trust the first kind only (features/admin/admin-two-step.ts), so the kinds must
 * not share a value.
 */
const FIRST_AMR: Record<FirstFactor, string> = { pwd: 'pwd', passwordless: 'sms', google: 'google', facebook: 'facebook' };
type SecondFactor = TokenType | 'backup_code';
const SECOND_AMR: Record<SecondFactor, string> = { totp: 'otp', sms: 'sms', email: 'email', backup_code: 'otp' };
const amrOf = (first: FirstFactor, second: SecondFactor) => [...new Set([FIRST_AMR[first], SECOND_AMR[second], 'mfa'])];
const firstFactorOf = (row: MfaTokenRow): FirstFactor => (row.first_factor as FirstFactor | null) ?? 'pwd';

/** The answer of a first step when the account asks for a second one. */
export interface MfaStep {
  mfaRequired: true;
  tokenType: TokenType;
  mfaToken: string;
  /** false: 'Remember this browser' is not offered for this account (remembered-browsers.ts). */
  rememberBrowser?: false;
}

export const SAME_FACTOR_MESSAGE = 'This account\'s 2-step verification sends its codes to this phone: sign in with your password';

/**
 * The second step of a password sign-in (SPEC.md sections 4 and 7). The MFA token is 32 random
 * bytes, stored only as a keyed hash, bound to the user, the interaction (challenge) and the
 * method, single use, valid 5 minutes, dead after 5 wrong codes. Any token that cannot be used
 * (unknown, expired, used, dead, another interaction, another method) answers 1026 (400).
 */
export function createMfaLoginService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const tokenHash = (token: string) => ctx.keys.hmac('mfa-token', token);
  const eventOf = (row: MfaTokenRow, meta: VisitorMeta) => ({ tenantId: row.tenant_id, clientId: row.client_id, userId: row.user_id, ip: meta.ip, userAgent: meta.userAgent });
  const targetOf = (row: MfaTokenRow, destination: string): CodeTarget => ({ tenantId: row.tenant_id, purpose: 'mfa', destination });
  const remembered = createRememberedBrowsers(ctx);

  /** The open token for the call, or 1026. */
  async function openToken(token: string, type: TokenType, now: number): Promise<MfaTokenRow> {
    const row = await createMfaQueries(ctx.db).find(tokenHash(token));
    if (!row || row.consumed_at !== null || row.expires_at <= now || row.attempts >= MFA_TOKEN_MAX_ATTEMPTS || row.token_type !== type) {
      throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
    }
    return row;
  }

  async function userOf(row: MfaTokenRow): Promise<UserRow> {
    const user = await ctx.users.findById(row.user_id);
    // 2-step turned off or changed since the password step: the token no longer applies.
    if (!user || user.status !== 'active' || mfaTypeOf(user) !== row.token_type) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
    return user;
  }

  async function failure(row: MfaTokenRow, meta: VisitorMeta, reason: string, field = 'otp'): Promise<never> {
    await ctx.audit.record({ ...eventOf(row, meta), type: 'mfa.failure', details: { tokenType: row.token_type, reason } });
    throw new ApiError(ErrorCode.CodeInvalid, 400, field);
  }

  /**
   * Spends one of the user's backup codes together with the MFA token, in one transaction: a
   * code that is wrong or used already changes nothing (1040, as a wrong 2-step code), and of two
   * sign-ins presenting the same code at once only one gets through.
   */
  async function spendBackupCode(row: MfaTokenRow, user: UserRow, code: string, meta: VisitorMeta): Promise<void> {
    const hash = hashBackupCode(ctx.keys, user.id, code);
    const spent = await inTransaction(ctx.db, async (trx) => {
      const at = Date.now();
      if (!(await createBackupCodeQueries(trx).use(user.id, hash, at))) return false;
      if (!(await createMfaQueries(trx).consume(row.id, at))) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      return true;
    });
    if (!spent) return failure(row, meta, 'wrong_backup_code', 'backup_code');
    const remaining = await createBackupCodeQueries(ctx.db).countUnused(user.id);
    await ctx.audit.record({ ...eventOf(row, meta), type: 'mfa.backup_code_used', details: { remaining } });
  }

  /** Checks the code of the account's own method and spends it with the MFA token. */
  async function spendMethodCode(row: MfaTokenRow, user: UserRow, type: TokenType, otp: string, meta: VisitorMeta, now: number): Promise<void> {
    const queries = createMfaQueries(ctx.db);
    if (type === 'totp') {
      if (!user.totp_secret_enc) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      const step = totpStep(ctx.keys.decrypt(user.totp_secret_enc), otp, now);
      if (step === null) return failure(row, meta, 'wrong_code');
      if (!(await queries.spendTotpStep(user.id, step))) return failure(row, meta, 'replayed_code');
      if (!(await queries.consume(row.id, Date.now()))) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      return;
    }
    const destination = destinationOf(user, type);
    if (!destination) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
    const check = await codes.verify(targetOf(row, destination), otp, { keep: true });
    if (check.result === 'wrong') return failure(row, meta, 'wrong_code');
    const payload = check.result === 'ok' && check.payload ? (JSON.parse(check.payload) as { mfaToken?: string }) : {};
    if (check.result === 'expired' || payload.mfaToken !== row.id) {
      await ctx.audit.record({ ...eventOf(row, meta), type: 'mfa.failure', details: { tokenType: row.token_type, reason: 'expired_code' } });
      throw new ApiError(ErrorCode.RequestExpired, 400, 'otp');
    }
    await inTransaction(ctx.db, async (trx) => {
      const at = Date.now();
      if (!(await codes.consume(check.codeId, trx)) || !(await createMfaQueries(trx).consume(row.id, at))) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      }
    });
  }

  /** A new token for `user`'s second step in this interaction. */
  async function issueToken(user: UserRow, type: TokenType, interactionUid: string, clientId: string, first: FirstFactor = 'pwd'): Promise<string> {
    const token = randomToken(32);
    const now = Date.now();
    await createMfaQueries(ctx.db).insert({
      id: tokenHash(token),
      tenantId: user.tenant_id,
      userId: user.id,
      interactionUid,
      clientId,
      tokenType: type,
      firstFactor: first,
      expiresAt: now + MFA_TOKEN_TTL_MS,
      at: now,
    });
    return token;
  }

  return {
    /**
     * After any first factor but a device (DESIGN.md section 7: no 2-step downgrade): null when the
     * account has 2-step verification off, else the second step to pass. The second factor must
     * differ from the first: a passwordless SMS code cannot also be the SMS second step (1102).
     * Also null when `visitor` is a browser remembered for this user ('Remember this browser',
     * remembered-browsers.ts): the skip is audited as mfa.skipped_remembered.
     */
    async secondStep(user: UserRow, interactionUid: string, clientId: string, first: FirstFactor, visitor?: RequestMeta): Promise<MfaStep | null> {
      const type = mfaTypeOf(user);
      if (!type) return null;
      if (first === 'passwordless' && type === 'sms') throw new ApiError(ErrorCode.NotAuthenticated, 403, undefined, SAME_FACTOR_MESSAGE);
      if (visitor && (await remembered.skipsSecondStep(user, { cookie: visitor.browser.rememberedBrowser, clientId, ip: visitor.ip, userAgent: visitor.userAgent }))) return null;
      const step: MfaStep = { mfaRequired: true, tokenType: type, mfaToken: await issueToken(user, type, interactionUid, clientId, first) };
      return (await remembered.offeredTo(user)) ? step : { ...step, rememberBrowser: false };
    },


    /** POST /api/v1/mfa/trigger-challenge: the SMS or e-mail code (60 s cooldown per destination). */
    async trigger(body: MfaTriggerBody, meta: VisitorMeta): Promise<CodeSentResponse> {
      if (body.tokenType === 'totp') throw new ApiError(ErrorCode.InvalidField, 400, 'token_type', 'The authenticator app makes its own codes: nothing is sent');
      const row = await openToken(body.mfaToken, body.tokenType, Date.now());
      // The token is the sign-in's: only the browser holding that sign-in request may have codes sent for it.
      requireHeldInteraction(meta.browser, row.interaction_uid);
      if (body.clientId !== undefined && body.clientId !== row.client_id) throw new ApiError(ErrorCode.InvalidField, 400, 'client_id', 'client_id does not match the sign-in request');
      const user = await userOf(row);
      const destination = destinationOf(user, body.tokenType);
      if (!destination) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      const tenant = await ctx.tenants.findById(user.tenant_id);
      if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 500);

      const target = targetOf(row, destination);
      // The code belongs to this token: another sign-in of the same account cannot use it.
      await codes.sendToAccount({ ...target, userId: user.id, payload: JSON.stringify({ mfaToken: row.id }) }, meta.ip, {
        deliver: (code) => deliverCode(
          ctx,
          { kind: 'mfa', usernameKind: body.tokenType === 'email' ? 'email' : 'phone', to: destination, locale: messageLocale(user.locale, meta.locale), tenant, name: user.name, code },
          eventOf(row, meta),
        ),
      });
      await ctx.audit.record({ ...eventOf(row, meta), type: 'mfa.challenge_sent', details: { tokenType: body.tokenType } });
      return { resendAfter: RESEND_COOLDOWN_SECONDS };
    },

    /**
     * POST /api/v1/mfa/login: checks the code (or a backup code) and finishes the sign-in. Either
     * kind spends one of the MFA token's five tries before it is compared. With `rememberBrowser`
     * and the tenant offering it, also answers the 'Remember this browser' cookie to set.
     */
    async login(body: MfaLoginBody, meta: VisitorMeta): Promise<{ redirectTo: string; rememberCookie?: string }> {
      requireHeldInteraction(meta.browser, body.challenge);
      await consume(ctx.rateLimits.codeCheckPerIp, meta.ip);
      const now = Date.now();
      const row = await openToken(body.mfaToken, body.tokenType, now);
      if (row.interaction_uid !== body.challenge) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      const interaction = await loadInteraction(ctx.provider, body.challenge, meta.browser);
      if (interactionClientId(interaction) !== row.client_id || (body.clientId !== undefined && body.clientId !== row.client_id)) {
        throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');
      }
      const user = await userOf(row);
      // The authenticator app's and the backup codes' wrong tries count against the account, as a
      // sent code's do (codes.verify): each sign-in brings a new token with 5 tries, and someone
      // who has the password can start sign-ins from many addresses.
      const checkedHere = body.backupCode !== undefined || body.tokenType === 'totp';
      const giveBack = checkedHere ? await takeTry(ctx.rateLimits.codeCheckPerAccount, accountBudgetKey(ctx.keys, 'code', row.tenant_id, user.id)) : undefined;
      if (!(await createMfaQueries(ctx.db).takeAttempt(row.id, MFA_TOKEN_MAX_ATTEMPTS, now))) throw new ApiError(ErrorCode.RequestExpired, 400, 'mfa_token');

      let second: SecondFactor = body.tokenType;
      if (body.backupCode !== undefined) {
        await spendBackupCode(row, user, body.backupCode, meta);
        second = 'backup_code';
      } else {
        // The body schema lets neither be missing; this keeps the type honest.
        if (body.otp === undefined) throw new ApiError(ErrorCode.RequiredField, 400, 'otp');
        await spendMethodCode(row, user, body.tokenType, body.otp, meta, now);
      }
      await giveBack?.();

      const at = Date.now();
      await ctx.users.recordSuccessfulLogin(user.id, at);
      await ctx.audit.record({ ...eventOf(row, meta), type: 'mfa.success', details: { tokenType: row.token_type, method: second } });
      const first = firstFactorOf(row);
      await ctx.audit.record({ ...eventOf(row, meta), type: 'login.success', details: { method: first === 'pwd' ? 'password' : first, secondFactor: second } });
      const redirectTo = await completeLogin(ctx.provider, interaction, user.id, amrOf(first, second));
      const rememberCookie = body.rememberBrowser ? await remembered.remember(user, row.client_id, meta.userAgent) : null;
      return rememberCookie ? { redirectTo, rememberCookie } : { redirectTo };
    },
  };
}
export type MfaLoginService = ReturnType<typeof createMfaLoginService>;
