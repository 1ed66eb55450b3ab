import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** Tables of short-lived secrets whose rows allow a few tries and a single use. */
export type SingleUseTable = 'one_time_codes' | 'mfa_tokens' | 'social_link_tokens';

/**
 * The tries and the use of a one-time code, an MFA token or a social link token. Each step is one
 * conditional UPDATE, so however many requests arrive at once, at most `maxAttempts` comparisons
 * ever happen and exactly one caller uses the row.
 */
export function singleUseRows(db: Kysely<Database> | Transaction<Database>, table: SingleUseTable) {
  // The tables share the columns used here (id, attempts, expires_at, consumed_at); Kysely types an
  // update against one table at a time, so one of them stands for all three.
  const update = () => db.updateTable(table as 'one_time_codes');
  return {
    /** Spends one try before a secret is compared: false when the row is used, expired or out of tries. */
    async takeAttempt(id: string, maxAttempts: number, now: number): Promise<boolean> {
      const result = await update()
        .set({ attempts: sql`attempts + 1` })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', maxAttempts)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Marks the row used: true for the one caller that did so while it was open and unexpired. */
    async consume(id: string, now: number): Promise<boolean> {
      const result = await update().set({ consumed_at: now }).where('id', '=', id).where('consumed_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
