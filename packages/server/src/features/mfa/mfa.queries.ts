import { type Kysely, type Transaction } from 'kysely';
import type { Database, MfaTokenRow } from '../../db/schema.ts';
import { singleUseRows } from '../../db/single-use-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface NewMfaToken {
  id: string;
  tenantId: string;
  userId: string;
  interactionUid: string;
  clientId: string;
  tokenType: string;
  firstFactor: string;
  expiresAt: number;
  at: number;
}

/**
 * The `mfa_tokens` table and the users' TOTP step. As with one-time codes, every change that
 * decides whether a token may still be used is one conditional UPDATE whose row count is checked.
 */
export function createMfaQueries(db: Executor) {
  return {
    ...singleUseRows(db, 'mfa_tokens'),
    async insert(token: NewMfaToken): Promise<void> {
      // Tokens of the user that can no longer be used go at the same time.
      await db.deleteFrom('mfa_tokens').where('user_id', '=', token.userId).where('expires_at', '<=', token.at).execute();
      await db
        .insertInto('mfa_tokens')
        .values({
          id: token.id,
          tenant_id: token.tenantId,
          user_id: token.userId,
          interaction_uid: token.interactionUid,
          client_id: token.clientId,
          token_type: token.tokenType,
          first_factor: token.firstFactor,
          attempts: 0,
          expires_at: token.expiresAt,
          consumed_at: null,
          created_at: token.at,
        })
        .execute();
    },

    async find(id: string): Promise<MfaTokenRow | undefined> {
      return db.selectFrom('mfa_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Records `step` as the user's last accepted TOTP step: false when that step (or a later one)
     * was accepted already, so a code is never accepted twice.
     */
    async spendTotpStep(userId: string, step: number): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ totp_last_step: step })
        .where('id', '=', userId)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
export type MfaQueries = ReturnType<typeof createMfaQueries>;
