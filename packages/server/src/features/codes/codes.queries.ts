import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, OneTimeCodeRow } from '../../db/schema.ts';
import { singleUseRows } from '../../db/single-use-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface CodeKey {
  tenantId: string;
  purpose: string;
  destination: string;
}

export interface NewCode extends CodeKey {
  id: string;
  userId: string | null;
  codeHash: string;
  payload: string | null;
  expiresAt: number;
  at: number;
}

/**
 * The `one_time_codes` table. Every change that decides whether a code may still be used is a
 * single conditional UPDATE whose row count is checked, so two requests racing on one code
 * cannot both win.
 */
export function createCodeQueries(db: Executor) {
  const byKey = (key: CodeKey) =>
    db.selectFrom('one_time_codes').where('tenant_id', '=', key.tenantId).where('purpose', '=', key.purpose).where('destination', '=', key.destination);

  return {
    ...singleUseRows(db, 'one_time_codes'),
    /** Replaces every earlier code for the same tenant, purpose and destination. */
    async replace(code: NewCode): Promise<void> {
      await db
        .deleteFrom('one_time_codes')
        .where('tenant_id', '=', code.tenantId)
        .where('purpose', '=', code.purpose)
        .where('destination', '=', code.destination)
        .execute();
      await db
        .insertInto('one_time_codes')
        .values({
          id: code.id,
          tenant_id: code.tenantId,
          user_id: code.userId,
          purpose: code.purpose,
          destination: code.destination,
          code_hash: code.codeHash,
          payload: code.payload,
          attempts: 0,
          expires_at: code.expiresAt,
          consumed_at: null,
          last_sent_at: code.at,
          created_at: code.at,
        })
        .execute();
    },

    /** The newest code not yet used for the key, if any (expired or not). */
    async findOpen(key: CodeKey): Promise<OneTimeCodeRow | undefined> {
      return byKey(key).selectAll().where('consumed_at', 'is', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    },

    /** Gives back a try taken by a right code that is not consumed yet (checked now, used later). */
    async returnAttempt(id: string): Promise<void> {
      await db.updateTable('one_time_codes').set({ attempts: sql`attempts - 1` }).where('id', '=', id).where('attempts', '>', 0).execute();
    },

  };
}
export type CodeQueries = ReturnType<typeof createCodeQueries>;
