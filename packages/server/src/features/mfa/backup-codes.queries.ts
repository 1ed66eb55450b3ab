import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The `backup_codes` table: hashes only; whether a code is spent is decided by one conditional UPDATE. */
export function createBackupCodeQueries(db: Executor) {
  return {
    /** Replaces every code of the user with `hashes` (run it in a transaction with what caused it). */
    async replaceAll(userId: string, hashes: readonly string[], at: number): Promise<void> {
      await db.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
      await db
        .insertInto('backup_codes')
        .values(hashes.map((hash) => ({ id: newId(), user_id: userId, code_hash: hash, used_at: null, created_at: at })))
        .execute();
    },

    async deleteAll(userId: string): Promise<void> {
      await db.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
    },

    async countUnused(userId: string): Promise<number> {
      const row = await db
        .selectFrom('backup_codes')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Spends the user's unused code with this hash: true for the one caller that did so. However
     * many requests present the same code at once, the row changes from unused to used only once.
     */
    async use(userId: string, hash: string, at: number): Promise<boolean> {
      const result = await db
        .updateTable('backup_codes')
        .set({ used_at: at })
        .where('user_id', '=', userId)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
export type BackupCodeQueries = ReturnType<typeof createBackupCodeQueries>;
