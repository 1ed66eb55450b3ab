import type { Kysely, Transaction } from 'kysely';
import type { Database, RememberedBrowsersTable } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export type RememberedBrowserRow = RememberedBrowsersTable;

/** How many browsers one account may have remembered at once: the newest are kept. */
export const REMEMBERED_BROWSERS_PER_USER = 20;

/**
 * Ends every remembered browser of the user: the one call every way of ending them makes (a
 * password change, 2-step turned off or on, 'Forget all browsers'). Answers how many there were.
 */
export async function forgetRememberedBrowsers(db: Executor, userId: string): Promise<number> {
  const result = await db.deleteFrom('remembered_browsers').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The `remembered_browsers` table: digests only, bounded per user, expired rows deleted as the user signs in. */
export function createRememberedBrowserQueries(db: Executor) {
  return {
    async find(id: string): Promise<RememberedBrowserRow | undefined> {
      return db.selectFrom('remembered_browsers').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Adds a browser; the user's expired rows go, and only the newest REMEMBERED_BROWSERS_PER_USER stay. */
    async insert(row: RememberedBrowserRow): Promise<void> {
      await this.deleteExpired(row.user_id, row.created_at);
      await db.insertInto('remembered_browsers').values(row).execute();
      const kept = await db
        .selectFrom('remembered_browsers')
        .select('id')
        .where('user_id', '=', row.user_id)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(REMEMBERED_BROWSERS_PER_USER)
        .execute();
      if (kept.length < REMEMBERED_BROWSERS_PER_USER) return;
      await db
        .deleteFrom('remembered_browsers')
        .where('user_id', '=', row.user_id)
        .where(
          'id',
          'not in',
          kept.map((k) => k.id),
        )
        .execute();
    },

    async deleteExpired(userId: string, now: number): Promise<void> {
      await db.deleteFrom('remembered_browsers').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
    },

    async remove(id: string): Promise<void> {
      await db.deleteFrom('remembered_browsers').where('id', '=', id).execute();
    },

    /** The user's browsers still remembered at `now`. */
    async countActive(userId: string, now: number): Promise<number> {
      const row = await db
        .selectFrom('remembered_browsers')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}
export type RememberedBrowserQueries = ReturnType<typeof createRememberedBrowserQueries>;
