import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewUserRow, UserRow, UserUpdate } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { newId } from '../../lib/ids.ts';
import { forgetRememberedBrowsers } from '../mfa/remembered-browsers.queries.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A new account: what it must say; every other column starts empty (no contact, password, 2-step, lockout). */
export type NewUser = Pick<NewUserRow, 'id' | 'tenant_id' | 'registration_method' | 'status' | 'created_at'> & Partial<NewUserRow>;

const EMPTY_USER = {
  email: null,
  email_verified: 0,
  phone_number: null,
  phone_number_verified: 0,
  name: null,
  birthday: null,
  gender: null,
  locale: null,
  avatar_key: null,
  password_hash: null,
  password_changed_at: null,
  enable_mfa: 0,
  authenticator_type: null,
  totp_secret_enc: null,
  failed_login_count: 0,
  locked_until: null,
  last_failed_login_at: null,
  registrant_browser_hash: null,
} satisfies Partial<NewUserRow>;

// Read on every sign-in, userinfo call and ID token: compiled once instead of built at each call.
const userById = reusableQuery((db, key: { id: string }) => db.selectFrom('users').selectAll().where('id', '=', key.id));
/**
 * What the provider needs of an account on every token and userinfo request: whether it may sign
 * in, its tenant, and the columns its claims come from. Not the password hash, the 2-step secret or
 * the lockout state: they have no business on that path (and a narrower row is less to read and
 * decode on every request).
 */
export const ACCOUNT_COLUMNS = ['id', 'tenant_id', 'status', 'name', 'email', 'email_verified', 'phone_number', 'phone_number_verified', 'locale', 'avatar_key'] as const;
export type AccountRow = Pick<UserRow, (typeof ACCOUNT_COLUMNS)[number]>;
const accountById = reusableQuery((db, key: { id: string }) => db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', key.id));
const userByEmail = reusableQuery((db, key: { tenantId: string; email: string }) =>
  db.selectFrom('users').selectAll().where('tenant_id', '=', key.tenantId).where('email', '=', key.email),
);
const userByPhone = reusableQuery((db, key: { tenantId: string; phoneNumber: string }) =>
  db.selectFrom('users').selectAll().where('tenant_id', '=', key.tenantId).where('phone_number', '=', key.phoneNumber),
);
const forgetLoginFailures = reusableQuery((db, change: { id: string; at: number }) =>
  db
    .updateTable('users')
    .set({ failed_login_count: 0, locked_until: null, updated_at: change.at })
    .where('id', '=', change.id)
    .where((eb) => eb.or([eb('failed_login_count', '!=', 0), eb('locked_until', 'is not', null)])),
);

export function createUserQueries(db: Executor) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      return (await userById(db, { id })).rows[0];
    },
    async findAccountById(id: string): Promise<AccountRow | undefined> {
      return (await accountById(db, { id })).rows[0];
    },
    async findByEmail(tenantId: string, email: string): Promise<UserRow | undefined> {
      return (await userByEmail(db, { tenantId, email: email.toLowerCase() })).rows[0];
    },
    async findByPhone(tenantId: string, phoneNumber: string): Promise<UserRow | undefined> {
      return (await userByPhone(db, { tenantId, phoneNumber })).rows[0];
    },
    /** By e-mail when the username holds an @, else by phone number. */
    async findByUsername(tenantId: string, username: string): Promise<UserRow | undefined> {
      return username.includes('@') ? this.findByEmail(tenantId, username) : this.findByPhone(tenantId, username);
    },
    async insert(user: NewUser): Promise<void> {
      await db.insertInto('users').values({ ...EMPTY_USER, updated_at: user.created_at, ...user }).execute();
    },
    async update(id: string, changes: UserUpdate): Promise<void> {
      await db.updateTable('users').set(changes).where('id', '=', id).execute();
    },
    /** Changes an account only while it is still pending (registered, not activated): false when it no longer is. */
    async updateIfPending(id: string, changes: UserUpdate): Promise<boolean> {
      const result = await db.updateTable('users').set(changes).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /**
     * Activates a pending account by a proof other than its own activation code (a passwordless
     * SMS code, a code to the e-mail at social linking). Whoever registered it proved nothing, and
     * may not be the owner (a pre-account hijack): their password, its history and the profile they
     * typed are dropped; the account keeps only the proven address and the method that proved it.
     * False when it is no longer pending. Run it in the caller's transaction.
     */
    async activateByOtherProof(id: string, proven: 'email' | 'phone', method: string, at: number): Promise<boolean> {
      const activated = await db
        .updateTable('users')
        .set({
          status: 'active',
          ...(proven === 'email' ? { email_verified: 1 } : { phone_number_verified: 1 }),
          password_hash: null,
          password_changed_at: null,
          name: null,
          birthday: null,
          gender: null,
          registration_method: method,
          failed_login_count: 0,
          locked_until: null,
          last_failed_login_at: null,
          registrant_browser_hash: null,
          updated_at: at,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (Number(activated.numUpdatedRows) !== 1) return false;
      await db.deleteFrom('password_history').where('user_id', '=', id).execute();
      return true;
    },
    /**
     * THE one place an existing account's password changes (reset, expiry, the command line, the
     * account area's password change): the new hash and its history row, a lifted sign-in lockout,
     * and the end of every browser remembered for 2-step verification, so whoever only knew the old
     * password cannot skip the second step on a browser they once had; and the end of every open
     * recovery code, so a code asked for before the change (by whoever knew the e-mail box or the
     * phone then) cannot set another password after it; and the end of every open MFA token, so a
     * sign-in whose password step passed with the old password cannot be finished by its second
     * step. Run it in the caller's transaction, with the caller's audit record.
     */
    async replacePassword(userId: string, passwordHash: string, at: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, password_changed_at: at, failed_login_count: 0, locked_until: null, updated_at: at })
        .where('id', '=', userId)
        .execute();
      await this.addPasswordHistory(userId, passwordHash, at);
      await forgetRememberedBrowsers(db, userId);
      await db.deleteFrom('one_time_codes').where('user_id', '=', userId).where('purpose', '=', 'recovery').execute();
      await db.deleteFrom('mfa_tokens').where('user_id', '=', userId).execute();
    },
    async clearPasswordHistory(userId: string): Promise<void> {
      await db.deleteFrom('password_history').where('user_id', '=', userId).execute();
    },
    async addPasswordHistory(userId: string, passwordHash: string, at: number): Promise<void> {
      await db.insertInto('password_history').values({ id: newId(), user_id: userId, password_hash: passwordHash, created_at: at }).execute();
    },
    /** The most recent password hashes, newest first. */
    async recentPasswordHashes(userId: string, limit: number): Promise<string[]> {
      if (limit <= 0) return [];
      const rows = await db
        .selectFrom('password_history')
        .select('password_hash')
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => r.password_hash);
    },
    /**
     * Counts one more wrong password in the database itself, so requests that arrive at once each
     * count, and answers the new count. A run whose last failure came before `forgetBefore` starts
     * again at 1; a count from before failures were timed (null) compares as unknown and goes on.
     */
    async recordFailedLogin(id: string, at: number, forgetBefore: number): Promise<number> {
      const row = await db
        .updateTable('users')
        .set({
          failed_login_count: sql<number>`case when last_failed_login_at < ${forgetBefore} then 1 else failed_login_count + 1 end`,
          last_failed_login_at: at,
          updated_at: at,
        })
        .where('id', '=', id)
        .returning('failed_login_count')
        .executeTakeFirst();
      return row?.failed_login_count ?? 0;
    },
    /**
     * Locks the account until `lockedUntil`, unless a concurrent failure already locked it for
     * longer or a sign-in since reset the count below the one this lock was decided from.
     */
    async extendLock(id: string, lockedUntil: number, failures: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ locked_until: lockedUntil })
        .where('id', '=', id)
        .where('failed_login_count', '>=', failures)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', lockedUntil)]))
        .execute();
    },
    /**
     * Forgets the account's failures. An account with none is left as it is: most sign-ins follow
     * no failure, and rewriting the row for nothing cost every one of them a write (on PostgreSQL
     * a new row version, WAL and later vacuum). The condition is in the statement, so a failure
     * counted meanwhile is still reset.
     */
    async recordSuccessfulLogin(id: string, at: number): Promise<void> {
      await forgetLoginFailures(db, { id, at });
    },
  };
}
export type UserQueries = ReturnType<typeof createUserQueries>;
