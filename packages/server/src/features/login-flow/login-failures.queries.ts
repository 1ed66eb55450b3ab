import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Runs of failed sign-ins kept outside the users table, by tenant and a keyed hash: of a username
 * with no account behind it (so a guess at a name that does not exist is locked out alike), and of
 * a trusted browser of an account (lockout.ts: its own lock, apart from the account's). The
 * counterpart of an account's failed_login_count and locked_until.
 */
export function createLoginFailureQueries(db: Executor) {
  return {
    async lockedUntil(tenantId: string, usernameHash: string): Promise<number | null> {
      const row = await db
        .selectFrom('login_failures')
        .select('locked_until')
        .where('tenant_id', '=', tenantId)
        .where('username_hash', '=', usernameHash)
        .executeTakeFirst();
      return row?.locked_until ?? null;
    },

    /**
     * Counts one more failure in one statement, so requests that arrive at once each count, and
     * answers the new count. A run whose last failure came before `forgetBefore` starts again at 1.
     */
    async recordFailure(tenantId: string, usernameHash: string, at: number, forgetBefore: number): Promise<number> {
      const row = await db
        .insertInto('login_failures')
        .values({ tenant_id: tenantId, username_hash: usernameHash, failures: 1, last_failure_at: at, locked_until: null })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'username_hash']).doUpdateSet({
            failures: sql<number>`case when login_failures.last_failure_at < ${forgetBefore} then 1 else login_failures.failures + 1 end`,
            last_failure_at: at,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      return row.failures;
    },

    /** Locks the username until `lockedUntil`, unless a concurrent failure already locked it for longer. */
    async extendLock(tenantId: string, usernameHash: string, lockedUntil: number, failures: number): Promise<void> {
      await db
        .updateTable('login_failures')
        .set({ locked_until: lockedUntil })
        .where('tenant_id', '=', tenantId)
        .where('username_hash', '=', usernameHash)
        .where('failures', '>=', failures)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', lockedUntil)]))
        .execute();
    },

    /** Forgets the run of failures of one key (a trusted browser's, after its right password). */
    async forget(tenantId: string, usernameHash: string): Promise<void> {
      await db.deleteFrom('login_failures').where('tenant_id', '=', tenantId).where('username_hash', '=', usernameHash).execute();
    },

    /** Forgets the runs of failures of several keys at once (a user's trusted browsers, on an unlock). */
    async forgetAll(tenantId: string, usernameHashes: readonly string[]): Promise<void> {
      if (usernameHashes.length === 0) return;
      await db.deleteFrom('login_failures').where('tenant_id', '=', tenantId).where('username_hash', 'in', usernameHashes).execute();
    },

    /** Deletes the rows whose last failure is forgotten, so the table holds only recent usernames. */
    async prune(forgetBefore: number): Promise<void> {
      await db.deleteFrom('login_failures').where('last_failure_at', '<', forgetBefore).execute();
    },
  };
}
export type LoginFailureQueries = ReturnType<typeof createLoginFailureQueries>;
