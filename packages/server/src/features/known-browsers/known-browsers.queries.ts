import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { reusableQuery } from '../../db/reusable-query.ts';
import { newId } from '../../lib/ids.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** How many browsers an account keeps: the most recently seen ones; older rows are deleted. */
export const KNOWN_BROWSERS_PER_USER = 50;

/** What a sign-in learnt about its browser. */
export type BrowserSighting = 'known' | 'first' | 'new';

// Every sign-in records its browser: these statements are compiled once instead of built at each call.
const touchBrowser = reusableQuery((db, key: { userId: string; keyHash: string; at: number }) =>
  db.updateTable('known_browsers').set({ last_seen_at: key.at }).where('user_id', '=', key.userId).where('browser_key_hash', '=', key.keyHash),
);
const anyBrowser = reusableQuery((db, key: { userId: string }) => db.selectFrom('known_browsers').select('id').where('user_id', '=', key.userId).limit(1));
const insertBrowser = reusableQuery((db, row: { id: string; userId: string; keyHash: string; at: number }) =>
  db
    .insertInto('known_browsers')
    .values({ id: row.id, user_id: row.userId, browser_key_hash: row.keyHash, first_seen_at: row.at, last_seen_at: row.at })
    .onConflict((oc) => oc.columns(['user_id', 'browser_key_hash']).doNothing())
    .returning('id'),
);

export function createKnownBrowserQueries(db: Executor) {
  return {
    /**
     * Records that `userId` signed in from the browser whose key hashes to `keyHash`: 'known' when
     * it had before (its last sighting moves), 'first' when the account had no browser at all yet,
     * 'new' when it had others but not this one. Two sign-ins from one new browser at once insert one
     * row: the unique (user_id, browser_key_hash) index lets only one of them answer 'new'.
     */
    async sighted(userId: string, keyHash: string, at: number): Promise<BrowserSighting> {
      const seen = await touchBrowser(db, { userId, keyHash, at });
      if (Number(seen.numAffectedRows ?? 0) > 0) return 'known';
      const others = (await anyBrowser(db, { userId })).rows[0];
      const inserted = (await insertBrowser(db, { id: newId(), userId, keyHash, at })).rows[0];
      if (!inserted) return 'known';
      await this.keepNewest(userId, KNOWN_BROWSERS_PER_USER);
      return others ? 'new' : 'first';
    },

    /** Deletes the account's browsers beyond the `keep` most recently seen. */
    async keepNewest(userId: string, keep: number): Promise<void> {
      const newest = db
        .selectFrom('known_browsers')
        .select('id')
        .where('user_id', '=', userId)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id', 'desc')
        .limit(keep);
      await db
        .deleteFrom('known_browsers')
        .where('user_id', '=', userId)
        // A derived table around the LIMIT: PostgreSQL and SQLite both take it inside NOT IN.
        .where('id', 'not in', db.selectFrom(newest.as('newest')).select('newest.id'))
        .execute();
    },

    /** Whether `userId` has signed in from the browser whose key hashes to `keyHash`. */
    async isKnown(userId: string, keyHash: string): Promise<boolean> {
      const row = await db.selectFrom('known_browsers').select('id').where('user_id', '=', userId).where('browser_key_hash', '=', keyHash).executeTakeFirst();
      return row !== undefined;
    },

    /** The key hashes of every browser `userId` has signed in from. */
    async keyHashes(userId: string): Promise<string[]> {
      const rows = await db.selectFrom('known_browsers').select('browser_key_hash').where('user_id', '=', userId).execute();
      return rows.map((row) => row.browser_key_hash);
    },

    async count(userId: string): Promise<number> {
      const row = await db.selectFrom('known_browsers').select(sql<number>`count(*)`.as('n')).where('user_id', '=', userId).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
export type KnownBrowserQueries = ReturnType<typeof createKnownBrowserQueries>;
