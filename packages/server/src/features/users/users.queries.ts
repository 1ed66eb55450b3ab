import type { Kysely, Transaction } from 'kysely';
import type { Database, NewUserRow, UserRow, UserUpdate } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

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
} satisfies Partial<NewUserRow>;

export function createUserQueries(db: Executor) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByEmail(tenantId: string, email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('email', '=', email.toLowerCase()).executeTakeFirst();
    },
    async findByPhone(tenantId: string, phoneNumber: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('phone_number', '=', phoneNumber).executeTakeFirst();
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
    async recordFailedLogin(id: string, failedCount: number, lockedUntil: number | null, at: number): Promise<void> {
      await db.updateTable('users').set({ failed_login_count: failedCount, locked_until: lockedUntil, updated_at: at }).where('id', '=', id).execute();
    },
    async recordSuccessfulLogin(id: string, at: number): Promise<void> {
      await db.updateTable('users').set({ failed_login_count: 0, locked_until: null, updated_at: at }).where('id', '=', id).execute();
    },
  };
}
export type UserQueries = ReturnType<typeof createUserQueries>;
