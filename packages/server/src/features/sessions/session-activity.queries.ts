import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Last activity is written at most this often per session (sign-ins and silent renewals can come in bursts). */
export const ACTIVITY_WRITE_INTERVAL_MS = 60_000;

/** Expired rows deleted at most this many at a time, on each sign-in (the table never grows without bound). */
const PURGE_BATCH = 100;

const MAX_USER_AGENT = 512;

export interface SignInActivity {
  sessionUid: string;
  userId: string;
  tenantId: string;
  /** The provider session's sign-in time. */
  signedInAt: number;
  ip: string | null;
  userAgent: string | null;
  expiresAt: number;
}

/** The session_activity table: what the Security page shows of each provider session. */
// Every completed authorization reads its session's row: compiled once instead of built at each call.
const activityOf = reusableQuery((db, key: { sessionUid: string }) =>
  db.selectFrom('session_activity').select(['user_id', 'created_at', 'last_active_at']).where('session_uid', '=', key.sessionUid),
);

export function createSessionActivityQueries(db: Executor) {
  /** A bounded delete of lapsed rows (portable: no DELETE … LIMIT on PostgreSQL). */
  async function purgeExpired(now = Date.now()): Promise<number> {
    const expired = await db.selectFrom('session_activity').select('session_uid').where('expires_at', '<', now).limit(PURGE_BATCH).execute();
    if (expired.length === 0) return 0;
    const uids = expired.map((row) => row.session_uid);
    const result = await db.deleteFrom('session_activity').where('session_uid', 'in', uids).where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  return {
    purgeExpired,

    /**
     * A completed authorization in a browser: the row of the session is written if it is new, was
     * another account's (a browser's session reused after sign-out), or is from an earlier sign-in of
     * the same session; otherwise only its activity, address and browser are refreshed, at most once
     * a minute. Answers whether a row was written.
     */
    async recordAuthorization(activity: SignInActivity, now = Date.now()): Promise<boolean> {
      const userAgent = activity.userAgent?.slice(0, MAX_USER_AGENT) ?? null;
      const existing = (await activityOf(db, { sessionUid: activity.sessionUid })).rows[0];
      if (!existing || existing.user_id !== activity.userId || existing.created_at < activity.signedInAt) {
        const row = {
          user_id: activity.userId,
          tenant_id: activity.tenantId,
          created_at: activity.signedInAt,
          last_active_at: now,
          ip: activity.ip,
          user_agent: userAgent,
          expires_at: activity.expiresAt,
        };
        await db
          .insertInto('session_activity')
          .values({ session_uid: activity.sessionUid, ...row })
          .onConflict((oc) => oc.column('session_uid').doUpdateSet(row))
          .execute();
        if (!existing) await purgeExpired(now);
        return true;
      }
      if (now - existing.last_active_at < ACTIVITY_WRITE_INTERVAL_MS) return false;
      const result = await db
        .updateTable('session_activity')
        .set({ last_active_at: now, ip: activity.ip, user_agent: userAgent, expires_at: activity.expiresAt })
        .where('session_uid', '=', activity.sessionUid)
        .where('last_active_at', '<=', now - ACTIVITY_WRITE_INTERVAL_MS)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Activity without a browser's sign-in (a refresh-token grant, the account area's own calls):
     * only the time moves, and only when the last write is a minute old (the condition is in the
     * UPDATE, so instances racing each other write once).
     */
    async touch(sessionUid: string, now = Date.now()): Promise<boolean> {
      const result = await db
        .updateTable('session_activity')
        .set({ last_active_at: now })
        .where('session_uid', '=', sessionUid)
        .where('last_active_at', '<=', now - ACTIVITY_WRITE_INTERVAL_MS)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    listForUser(userId: string) {
      return db.selectFrom('session_activity').selectAll().where('user_id', '=', userId).execute();
    },

    async remove(userId: string, sessionUids: string[]): Promise<void> {
      if (sessionUids.length === 0) return;
      await db.deleteFrom('session_activity').where('user_id', '=', userId).where('session_uid', 'in', sessionUids).execute();
    },
  };
}
export type SessionActivityQueries = ReturnType<typeof createSessionActivityQueries>;
