import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface NewPasskeyChallenge {
  /** Keyed hash of the WebAuthn challenge. */
  id: string;
  tenantId: string;
  clientId: string;
  interactionUid: string;
  expiresAt: number;
  at: number;
}

/**
 * The `passkey_challenges` table. A sign-in request holds at most one passkey challenge (a new one
 * replaces it), and expired ones go whenever one is made, so the table stays as small as the
 * number of open sign-in pages. Using one is a conditional DELETE whose row count is checked: two
 * requests racing with the same assertion cannot both win.
 */
export function createPasskeyQueries(db: Executor) {
  return {
    async insertChallenge(c: NewPasskeyChallenge): Promise<void> {
      await db
        .deleteFrom('passkey_challenges')
        .where((eb) => eb.or([eb('expires_at', '<=', c.at), eb('interaction_uid', '=', c.interactionUid)]))
        .execute();
      await db
        .insertInto('passkey_challenges')
        .values({ id: c.id, tenant_id: c.tenantId, client_id: c.clientId, interaction_uid: c.interactionUid, expires_at: c.expiresAt, created_at: c.at })
        .execute();
    },

    /** Spends the unexpired challenge `id` of this sign-in request and client: true for the one caller that did. */
    async consumeChallenge(id: string, interactionUid: string, clientId: string, now: number): Promise<boolean> {
      const result = await db
        .deleteFrom('passkey_challenges')
        .where('id', '=', id)
        .where('interaction_uid', '=', interactionUid)
        .where('client_id', '=', clientId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
export type PasskeyQueries = ReturnType<typeof createPasskeyQueries>;
