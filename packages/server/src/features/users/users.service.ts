import type { Kysely } from 'kysely';
import { NAME_MAX_LENGTH, classifyUsername, normalizeUsername } from '@passgate/contract';
import type { AppContext } from '../../context.ts';
import type { Database, UserRow } from '../../db/schema.ts';
import { createOidcStore } from '../../oidc/adapter.ts';
import { newId } from '../../lib/ids.ts';
import { hashSecret } from '../../lib/passwords.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createTenantQueries, type TenantRecord } from '../tenants/tenants.queries.ts';
import { actorEvent, inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import { AdminInputError, type AdminInputProblem } from '../admin-input-error.ts';
import { createUserQueries } from './users.queries.ts';
import { isRecentlyUsedPassword, unmetPasswordText } from './password-rules.ts';
import { isCommonPassword } from './common-passwords.ts';
import { forgetTrustedBrowsersFailures } from '../login-flow/lockout.ts';

export type UserStatus = 'pending' | 'active' | 'disabled';
const STATUSES: readonly UserStatus[] = ['pending', 'active', 'disabled'];

export interface CreateUserInput {
  tenantId: string;
  email?: string | null;
  phoneNumber?: string | null;
  name: string;
  password: string;
  /** Default 'active'. */
  status?: UserStatus;
  /** Whether the given e-mail address and phone number count as verified (default: yes, an operator vouches for them). */
  verified?: boolean;
}

/** A user as an operator sees it: never a password hash or a second-factor secret. */
export interface UserView {
  id: string;
  tenantId: string;
  email: string | null;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  name: string | null;
  status: string;
  registrationMethod: string;
  passwordChangedAt: number | null;
  createdAt: number;
}

export function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    emailVerified: row.email_verified === 1,
    phoneNumber: row.phone_number,
    phoneNumberVerified: row.phone_number_verified === 1,
    name: row.name,
    status: row.status,
    registrationMethod: row.registration_method,
    passwordChangedAt: row.password_changed_at,
    createdAt: row.created_at,
  };
}

export interface UserServiceOptions {
  /**
   * Refuse passwords on the list of common breached passwords, as registration and reset do: on
   * for the command line, off for the demo seed and tests that set up accounts directly.
   */
  refuseCommonPasswords?: boolean;
}

/**
 * What the service needs: the database, and, to end the sessions of an account whose password it
 * sets, the provider's storage and the back-channel logout (the command line passes its whole
 * context). Without them (the demo seed, tests that only set up accounts) setting a password still
 * ends the sessions, grants and refresh tokens the database holds; the access tokens and codes
 * Redis holds, and the relying parties' logout tokens, need them; lifting the locks of the
 * account's trusted browsers needs the server's keys.
 */
export type UserServiceDeps = { db: Kysely<Database> } & Partial<Pick<AppContext, 'oidcStore' | 'backchannelLogout' | 'keys'>>;

/** A password set by an operator: the account, and the relying parties' logout tokens on their way. */
export interface PasswordSet {
  user: UserView;
  /**
   * Settles when every back-channel logout token has been delivered or given up on (never rejects):
   * a command line must wait for it before it exits.
   */
  delivered: Promise<void>;
}

/** Accounts created and passwords set by an operator (the command line) or the demo seed. */
export function createUserService(deps: UserServiceDeps, options: UserServiceOptions = {}) {
  const { db } = deps;
  const oidcStore = deps.oidcStore ?? createOidcStore({ db });
  const tenants = createTenantQueries(db);
  const users = createUserQueries(db);

  async function passwordProblems(password: string, tenant: TenantRecord): Promise<AdminInputProblem[]> {
    if (password.length === 0) return [{ field: 'password', message: 'is required' }];
    const needs = unmetPasswordText(password, tenant.passwordPolicy);
    if (needs) return [{ field: 'password', message: `does not meet the password policy of tenant '${tenant.id}' (needs ${needs})` }];
    if (options.refuseCommonPasswords && (await isCommonPassword(password))) {
      return [{ field: 'password', message: 'is on the list of common breached passwords: choose another one' }];
    }
    return [];
  }

  async function mustFindTenant(tenantId: string): Promise<TenantRecord> {
    const tenant = await tenants.findById(tenantId);
    if (!tenant) throw AdminInputError.of('tenantId', `tenant '${tenantId}' does not exist`);
    return tenant;
  }

  return {
    async createUser(input: CreateUserInput, actor: AdminActor = {}): Promise<UserView> {
      const tenant = await mustFindTenant(input.tenantId);
      const problems: AdminInputProblem[] = [];
      const email = input.email ? normalizeUsername(input.email) : null;
      const phoneNumber = input.phoneNumber ? input.phoneNumber.trim() : null;

      if (!email && !phoneNumber) problems.push({ field: 'email', message: 'an e-mail address or a phone number is required' });
      if (email) {
        if (classifyUsername(email, ['email', 'phone']) !== 'email') problems.push({ field: 'email', message: `${input.email} has an invalid format` });
        else if (await users.findByEmail(tenant.id, email)) problems.push({ field: 'email', message: `${email} is already registered in tenant '${tenant.id}'` });
      }
      if (phoneNumber) {
        if (classifyUsername(phoneNumber, ['email', 'phone']) !== 'phone') {
          problems.push({ field: 'phoneNumber', message: `${input.phoneNumber} has an invalid format (10 digits)` });
        } else if (await users.findByPhone(tenant.id, phoneNumber)) {
          problems.push({ field: 'phoneNumber', message: `${phoneNumber} is already registered in tenant '${tenant.id}'` });
        }
      }
      const name = input.name.trim();
      if (!name) problems.push({ field: 'name', message: 'must not be blank' });
      else if (name.length > NAME_MAX_LENGTH) problems.push({ field: 'name', message: `must be at most ${NAME_MAX_LENGTH} characters` });
      const status = input.status ?? 'active';
      if (!STATUSES.includes(status)) problems.push({ field: 'status', message: `must be one of ${STATUSES.join(', ')}` });
      problems.push(...(await passwordProblems(input.password, tenant)));
      if (problems.length > 0) throw new AdminInputError(problems);

      const passwordHash = await hashSecret(input.password);
      const verified = input.verified ?? true;
      const now = Date.now();
      const id = newId();
      return inTransaction(db, async (trx) => {
        const q = createUserQueries(trx);
        await q.insert({
          id,
          tenant_id: tenant.id,
          email,
          email_verified: email && verified ? 1 : 0,
          phone_number: phoneNumber,
          phone_number_verified: phoneNumber && verified ? 1 : 0,
          name,
          password_hash: passwordHash,
          password_changed_at: now,
          registration_method: 'password',
          status,
          created_at: now,
        });
        await q.addPasswordHistory(id, passwordHash, now);
        await createAuditQueries(trx).record({ type: 'user.created', tenantId: tenant.id, userId: id, details: { by: actor.by ?? 'admin', status } }, now);
        const row = await q.findById(id);
        if (!row) throw new Error('the user vanished after it was created');
        return toUserView(row);
      });
    },

    /**
     * Sets a user's password, checking the tenant's policy and refusing any of the last
     * `password_history_size` passwords. Also lifts a sign-in lockout. As a password reset does,
     * whoever knew or used the old password is signed out everywhere: an operator sets a password
     * when the account was taken over, so the account's provider sessions, grants, refresh and
     * access tokens go in the same transaction, and the relying parties signed in through those
     * sessions get back-channel logout tokens (audited sessions.ended, reason password_set).
     */
    async setPassword(tenantId: string, username: string, password: string, actor: AdminActor = {}): Promise<PasswordSet> {
      const tenant = await mustFindTenant(tenantId);
      const normalized = normalizeUsername(username);
      const user = normalized ? await users.findByUsername(tenant.id, normalized) : undefined;
      if (!user) throw AdminInputError.of('username', `no user '${username}' in tenant '${tenant.id}'`);
      const problems = await passwordProblems(password, tenant);
      if (problems.length > 0) throw new AdminInputError(problems);
      if (await isRecentlyUsedPassword(users, user, password, tenant.passwordHistorySize)) {
        throw AdminInputError.of('password', `was used recently: tenant '${tenant.id}' refuses the last ${tenant.passwordHistorySize} passwords`);
      }

      const passwordHash = await hashSecret(password);
      const now = Date.now();
      const { view, notice } = await inTransaction(db, async (trx) => {
        const q = createUserQueries(trx);
        await q.replacePassword(user.id, passwordHash, now);
        // replacePassword lifts the account's lock; its trusted browsers' own locks go with it.
        if (deps.keys) await forgetTrustedBrowsersFailures(trx, deps.keys, user);
        const audit = createAuditQueries(trx);
        await audit.record({ type: 'password.changed', tenantId: tenant.id, userId: user.id, details: { by: actor.by ?? 'admin' } }, now);
        // Who to tell is read before the sessions go; both in the transaction that sets the password.
        const found = deps.backchannelLogout ? await deps.backchannelLogout.noticeFor(user.id, trx) : undefined;
        await oidcStore.forgetAccount(user.id, trx);
        await audit.record({ type: 'sessions.ended', tenantId: tenant.id, userId: user.id, ...actorEvent(actor, { reason: 'password_set' }) }, now);
        const row = await q.findById(user.id);
        if (!row) throw new Error('the user vanished while its password was set');
        return { view: toUserView(row), notice: found };
      });
      // Redis is not transactional (see OidcStore.forgetAccount): its access tokens and codes go now.
      await oidcStore.forgetAccount(user.id);
      const delivered = deps.backchannelLogout && notice ? deps.backchannelLogout.send(notice) : Promise.resolve();
      return { user: view, delivered };
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
