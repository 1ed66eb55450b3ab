import type { Kysely } from 'kysely';
import { NAME_MAX_LENGTH, classifyUsername, normalizeUsername } from '@passgate/contract';
import type { Database, UserRow } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { hashSecret } from '../../lib/passwords.ts';
import { createAuditQueries } from '../audit/audit.queries.ts';
import { createTenantQueries, type TenantRecord } from '../tenants/tenants.queries.ts';
import { inTransaction, type AdminActor } from '../tenants/tenants.service.ts';
import { AdminInputError, type AdminInputProblem } from '../admin-input-error.ts';
import { createUserQueries } from './users.queries.ts';
import { isRecentlyUsedPassword, unmetPasswordText } from './password-rules.ts';
import { isCommonPassword } from './common-passwords.ts';

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

/** Accounts created and passwords set by an operator (the command line) or the demo seed. */
export function createUserService({ db }: { db: Kysely<Database> }, options: UserServiceOptions = {}) {
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
     * `password_history_size` passwords. Also lifts a sign-in lockout.
     */
    async setPassword(tenantId: string, username: string, password: string, actor: AdminActor = {}): Promise<UserView> {
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
      return inTransaction(db, async (trx) => {
        const q = createUserQueries(trx);
        await q.replacePassword(user.id, passwordHash, now);
        await createAuditQueries(trx).record({ type: 'password.changed', tenantId: tenant.id, userId: user.id, details: { by: actor.by ?? 'admin' } }, now);
        const row = await q.findById(user.id);
        if (!row) throw new Error('the user vanished while its password was set');
        return toUserView(row);
      });
    },
  };
}
export type UserService = ReturnType<typeof createUserService>;
