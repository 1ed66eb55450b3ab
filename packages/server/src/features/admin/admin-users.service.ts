import { ErrorCode, type AdminCodeSent, type AdminUserDetail, type AdminUserList, type AdminUserListQuery, type AdminUserStatus, type AdminUserSummary, type Locale } from '@passgate/contract';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import { avatarPath } from '../../context.ts';
import { databaseEngine } from '../../db/database.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { parseJson } from '../../lib/json.ts';
import { ApiError } from '../../plugins/errors.ts';
import { RESEND_COOLDOWN_SECONDS } from '../../plugins/rate-limits.ts';
import { messageLocale } from '../../messaging/templates/templates.ts';
import { eraseAccount } from '../account/account-deletion.service.ts';
import { createAuditQueries, type AuditEvent, type AuditEventType } from '../audit/audit.queries.ts';
import { channelOf, deliverCode } from '../codes/code-delivery.ts';
import { createCodeService, type CodeService } from '../codes/codes.service.ts';
import { unlockAccount } from '../login-flow/lockout.ts';
import { createBackupCodeQueries } from '../mfa/backup-codes.queries.ts';
import { mfaTypeOf } from '../mfa/mfa-login.service.ts';
import { turnTwoStepOff } from '../mfa/mfa-settings.service.ts';
import { createSessionService } from '../sessions/sessions.service.ts';
import { actorEvent, inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import type { TenantRecord } from '../tenants/tenants.queries.ts';
import { createUserQueries } from '../users/users.queries.ts';
import { toUserView } from '../users/users.service.ts';
import { createWebauthnQueries } from '../webauthn/webauthn.queries.ts';
import { ADMIN_CONSOLE_CLIENT_ID, type AdminPrincipal } from './admin-auth.ts';
import { createAdminRoleQueries } from './admin-roles.queries.ts';
import { createAdminUserQueries } from './admin-users.queries.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const RECENT_EVENTS = 20;

export const USER_NOT_FOUND_MESSAGE = 'No such user in this tenant';

/** 409 for an action the user's state does not allow (disabling a disabled account…). */
const conflict = (message: string) => new ApiError(ErrorCode.AdminStateConflict, 409, undefined, message);
/** 409 for disabling or deleting one's own account, which would lock the admin out mid-action. */
const ownAccount = (message: string) => new ApiError(ErrorCode.AdminOwnAccount, 409, undefined, message);

export function toAdminUserSummary(user: UserRow, now = Date.now()): AdminUserSummary {
  const locked = user.locked_until !== null && user.locked_until > now;
  // The operator's view of a user (users.service), with the times as ISO strings and the lock spelt out.
  const { passwordChangedAt: _passwordChangedAt, createdAt: _createdAt, ...view } = toUserView(user);
  return {
    ...view,
    status: user.status as AdminUserStatus,
    locked,
    lockedUntil: locked ? iso(user.locked_until) : null,
    twoStepMethod: mfaTypeOf(user),
    createdAt: iso(user.created_at) as string,
  };
}

/**
 * The admin console's users (issue 17): a tenant's search, a user's page, and the support actions.
 * Each action is audited with the admin as actor (details.by 'admin', details.actorUserId, the
 * admin's IP and user agent, client admin-console) and goes through the service that does the same
 * thing elsewhere: 2-step off as the account area turns it off, deletion as the account area
 * deletes, sign-out everywhere as the command line does, codes through the code service.
 * The caller has checked the admin's access to the tenant; actions on an operator's account, or on
 * the account of an admin of a tenant the caller does not administer, also need an operator (a
 * tenant admin cannot lock out, strip or delete the people above or beside them).
 */
export function createAdminUserService(ctx: AppContext, codes: CodeService = createCodeService(ctx)) {
  const engine = databaseEngine(ctx.config.databaseUrl);
  const sessions = createSessionService(ctx);

  const eventOf = (user: UserRow, actor: AdminActor, extra: Record<string, unknown> = {}): Omit<AuditEvent, 'type'> => ({
    tenantId: user.tenant_id,
    userId: user.id,
    clientId: ADMIN_CONSOLE_CLIENT_ID,
    ...actorEvent(actor, extra),
  });

  async function mustFind(tenantId: string, userId: string): Promise<UserRow> {
    const user = await createAdminUserQueries(ctx.db, engine).findInTenant(tenantId, userId);
    if (!user) throw new ApiError(ErrorCode.AccountNotFound, 404, 'userId', USER_NOT_FOUND_MESSAGE);
    return user;
  }

  async function mustFindTenant(tenantId: string): Promise<TenantRecord> {
    const tenant = await ctx.tenants.findById(tenantId);
    if (!tenant) throw new ApiError(ErrorCode.MissingTenant, 404, 'tenantId', `No tenant '${tenantId}'`);
    return tenant;
  }

  /**
   * The user an action is for: in the tenant, and, unless the admin is an operator, no admin with
   * more reach than the admin's own. Every admin of every tenant has their account in the console's
   * tenant, so a tenant admin of that tenant reaches them all through it: without this, the admin
   * of one tenant could turn off 2-step, disable or delete the admin of another (or an operator)
   * and so take or deny that tenant. A tenant admin may act on an account that holds no operator
   * role and administers only tenants they administer too (themselves included); 403 1301 else.
   * Every per-user action goes through here (the user's page only reads).
   */
  async function target(admin: AdminPrincipal, tenantId: string, userId: string): Promise<UserRow> {
    const user = await mustFind(tenantId, userId);
    if (admin.operator) return user;
    const roles = await createAdminRoleQueries(ctx.db).rolesOf(user.id);
    if (roles.operator) throw new ApiError(ErrorCode.ClientLacksPermission, 403, undefined, "Only an operator may act on an operator's account");
    if (roles.tenantAdminOf.some((administered) => !admin.tenantAdminOf.includes(administered))) {
      throw new ApiError(ErrorCode.ClientLacksPermission, 403, undefined, 'Only an operator, or an admin of every tenant this user administers, may act on their account');
    }
    return user;
  }

  /** Updates the user and records `type` in one transaction. */
  async function changeAndRecord(
    user: UserRow,
    actor: AdminActor,
    type: AuditEventType,
    change: (q: ReturnType<typeof createUserQueries>, now: number, trx: Kysely<Database>) => Promise<void>,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const now = Date.now();
    await inTransaction(ctx.db, async (trx) => {
      await change(createUserQueries(trx), now, trx);
      await createAuditQueries(trx).record({ ...eventOf(user, actor, extra), type }, now);
    });
  }

  async function detail(tenantId: string, userId: string): Promise<AdminUserDetail> {
    const user = await mustFind(tenantId, userId);
    const queries = createAdminUserQueries(ctx.db, engine);
    const [lastSignInAt, identities, devices, backupCodes, events, roles] = await Promise.all([
      queries.lastSignInAt(user.id),
      queries.identities(user.id),
      createWebauthnQueries(ctx.db).listForUser(user.id),
      mfaTypeOf(user) ? createBackupCodeQueries(ctx.db).countUnused(user.id) : Promise.resolve(0),
      queries.recentEvents(user.id, RECENT_EVENTS),
      createAdminRoleQueries(ctx.db).rolesOf(user.id),
    ]);
    return {
      ...toAdminUserSummary(user),
      birthday: user.birthday,
      gender: user.gender,
      locale: user.locale,
      avatarUrl: user.avatar_key ? `${ctx.config.publicUrl}${avatarPath(user.avatar_key)}` : null,
      hasPassword: user.password_hash !== null,
      passwordChangedAt: iso(user.password_changed_at),
      failedLoginCount: user.failed_login_count,
      lastSignInAt: iso(lastSignInAt),
      identities: identities.map((i) => ({ provider: i.provider, subject: i.subject, email: i.email, createdAt: iso(i.created_at) as string })),
      devices: devices.map((d) => ({ id: d.id, deviceName: d.device_name, active: d.active === 1, createdAt: iso(d.created_at) as string, lastUsedAt: iso(d.last_used_at) })),
      twoStep: { method: mfaTypeOf(user), backupCodesRemaining: backupCodes },
      adminRoles: roles,
      recentEvents: events.map((e) => ({
        id: e.id,
        type: e.type,
        createdAt: iso(e.created_at) as string,
        clientId: e.client_id,
        ip: e.ip,
        userAgent: e.user_agent,
        details: parseJson<Record<string, unknown> | null>(e.details, null),
      })),
    };
  }

  /** Sends a code of `purpose` to `to` for the user, in the user's language, audited as `type`. */
  async function sendCode(
    user: UserRow,
    tenant: TenantRecord,
    actor: AdminActor,
    purpose: 'activation' | 'recovery',
    to: { to: string; kind: 'email' | 'phone' },
    type: AuditEventType,
    locale: Locale,
  ): Promise<AdminCodeSent> {
    const event = eventOf(user, actor);
    await codes.sendToAccount({ tenantId: tenant.id, purpose, destination: to.to, userId: user.id }, actor.ip ?? 'admin', {
      deliver: (code) => deliverCode(ctx, { kind: purpose, usernameKind: to.kind, to: to.to, locale: messageLocale(user.locale, locale), tenant, name: user.name, code }, event),
    });
    await ctx.audit.record({ ...eventOf(user, actor, { purpose, channel: channelOf(to.kind) }), type });
    return { channel: channelOf(to.kind), destination: to.to, resendAfter: RESEND_COOLDOWN_SECONDS };
  }

  return {
    async list(tenantId: string, query: AdminUserListQuery): Promise<AdminUserList> {
      await mustFindTenant(tenantId);
      const { rows, total } = await createAdminUserQueries(ctx.db, engine).search({ tenantId, q: query.q, status: query.status, page: query.page, pageSize: query.page_size });
      const now = Date.now();
      return { items: rows.map((row) => toAdminUserSummary(row, now)), page: query.page, pageSize: query.page_size, total };
    },

    detail,

    /** An active account stops signing in at once: its sessions and tokens end too. */
    async disable(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      if (user.id === admin.userId) throw ownAccount('You cannot disable your own account');
      if (user.status !== 'active') throw conflict(`Only an active account can be disabled (this one is ${user.status})`);
      await changeAndRecord(user, actor, 'user.disabled', (q, now) => q.update(user.id, { status: 'disabled', updated_at: now }));
      await sessions.signOutUser(user, actor, { reason: 'disabled' });
      return detail(tenantId, userId);
    },

    async enable(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      if (user.status !== 'disabled') throw conflict(`Only a disabled account can be enabled (this one is ${user.status})`);
      await changeAndRecord(user, actor, 'user.enabled', (q, now) => q.update(user.id, { status: 'active', updated_at: now }));
      return detail(tenantId, userId);
    },

    /** Lifts a lockout after wrong passwords, the account's and its trusted browsers', and forgets the runs of failures. */
    async unlock(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      const wasLocked = user.locked_until !== null && user.locked_until > Date.now();
      await changeAndRecord(user, actor, 'user.unlocked', (_q, now, trx) => unlockAccount(trx, ctx.keys, user, now), { wasLocked, failures: user.failed_login_count });
      return detail(tenantId, userId);
    },

    /** A new activation code for a pending account, to the address it registered with. */
    async resendActivation(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string, locale: Locale): Promise<AdminCodeSent> {
      const user = await target(admin, tenantId, userId);
      if (user.status !== 'pending') throw new ApiError(ErrorCode.AlreadyActivated, 409, undefined, 'Only an account that is not activated yet gets an activation code');
      const tenant = await mustFindTenant(tenantId);
      const to = user.email ? { to: user.email, kind: 'email' as const } : user.phone_number ? { to: user.phone_number, kind: 'phone' as const } : null;
      if (!to) throw new ApiError(ErrorCode.NoActiveCredentials, 400, undefined, 'The account has no e-mail address or phone number');
      return sendCode(user, tenant, actor, 'activation', to, 'code.sent', locale);
    },

    /**
     * A password recovery code, as 'Forgot password' sends one, to the account's verified e-mail
     * address, else its verified phone number: the user then sets a new password with it on the
     * reset screen (the admin never sees or sets the password).
     */
    async sendPasswordReset(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string, locale: Locale): Promise<AdminCodeSent> {
      const user = await target(admin, tenantId, userId);
      const tenant = await mustFindTenant(tenantId);
      if (!tenant.resetPasswordAllowed) throw new ApiError(ErrorCode.TenantDisallows, 403, undefined, 'The tenant does not allow password reset');
      if (user.status !== 'active' || !user.password_hash) throw conflict('Only an active account with a password can reset it');
      const to = user.email && user.email_verified === 1 ? { to: user.email, kind: 'email' as const } : user.phone_number && user.phone_number_verified === 1 ? { to: user.phone_number, kind: 'phone' as const } : null;
      if (!to) throw new ApiError(ErrorCode.NoActiveCredentials, 400, undefined, 'The account has no verified e-mail address or phone number');
      return sendCode(user, tenant, actor, 'recovery', to, 'password.recovery_requested', locale);
    },

    /** Turns 2-step verification off (the authenticator secret and backup codes go), as the account area does. */
    async turnOffTwoStep(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      // The account area asks for the password (and, for an admin, the factor itself) to change
      // one's own 2-step; a console token alone must not strip it.
      if (user.id === admin.userId) throw ownAccount('You cannot turn off your own 2-step verification here: use the account area');
      if (!mfaTypeOf(user)) throw conflict('2-step verification is already off');
      await turnTwoStepOff(ctx, user, eventOf(user, actor));
      return detail(tenantId, userId);
    },

    async removeDevice(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string, deviceId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      if (user.id === admin.userId) throw ownAccount('You cannot remove your own device here: use the account area');
      const device = await createWebauthnQueries(ctx.db).findForUser(user.id, deviceId);
      if (!device) throw new ApiError(ErrorCode.InvalidField, 404, 'deviceId', 'No such device');
      const now = Date.now();
      await inTransaction(ctx.db, async (trx) => {
        if (!(await createWebauthnQueries(trx).deleteCredential(user.id, deviceId))) throw new ApiError(ErrorCode.InvalidField, 404, 'deviceId', 'No such device');
        await createAuditQueries(trx).record({ ...eventOf(user, actor, { deviceId, deviceName: device.device_name }), type: 'webauthn.deleted' }, now);
      });
      return detail(tenantId, userId);
    },

    /** Every session, grant and token of the user ends; relying parties get back-channel logout tokens. */
    async signOut(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<AdminUserDetail> {
      const user = await target(admin, tenantId, userId);
      await sessions.signOutUser(user, actor);
      return detail(tenantId, userId);
    },

    /** Deletes the account for good, as the account area's deletion does. */
    async remove(admin: AdminPrincipal, actor: AdminActor, tenantId: string, userId: string): Promise<void> {
      const user = await target(admin, tenantId, userId);
      if (user.id === admin.userId) throw ownAccount('You cannot delete your own account here: use the account area');
      await eraseAccount(ctx, user, eventOf(user, actor));
    },
  };
}
export type AdminUserService = ReturnType<typeof createAdminUserService>;
