import { type Kysely, type Transaction } from 'kysely';
import type { Database, SocialLinkTokenRow, UserIdentityRow } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { singleUseRows } from '../../db/single-use-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface IdentityKey {
  tenantId: string;
  provider: string;
  subject: string;
}

export interface NewLinkToken extends IdentityKey {
  /** The keyed hash of the token. */
  id: string;
  userId: string;
  interactionUid: string;
  clientId: string;
  email: string | null;
  expiresAt: number;
  at: number;
}

/**
 * The `user_identities` and `social_link_tokens` tables. As with MFA tokens, every change that
 * decides whether a link token may still be used is one conditional UPDATE whose row count is checked.
 */
export function createSocialQueries(db: Executor) {
  return {
    ...singleUseRows(db, 'social_link_tokens'),
    async findIdentity(key: IdentityKey): Promise<UserIdentityRow | undefined> {
      return db
        .selectFrom('user_identities')
        .selectAll()
        .where('tenant_id', '=', key.tenantId)
        .where('provider', '=', key.provider)
        .where('subject', '=', key.subject)
        .executeTakeFirst();
    },

    /** Links the identity to the account; a unique violation means it is linked already (to this or another account). */
    async insertIdentity(key: IdentityKey & { userId: string; email: string | null }, at: number): Promise<void> {
      await db
        .insertInto('user_identities')
        .values({ id: newId(), tenant_id: key.tenantId, user_id: key.userId, provider: key.provider, subject: key.subject, email: key.email, created_at: at })
        .execute();
    },

    async insertLinkToken(token: NewLinkToken): Promise<void> {
      // The user's tokens that can no longer be used go at the same time.
      await db.deleteFrom('social_link_tokens').where('user_id', '=', token.userId).where('expires_at', '<=', token.at).execute();
      await db
        .insertInto('social_link_tokens')
        .values({
          id: token.id,
          tenant_id: token.tenantId,
          user_id: token.userId,
          interaction_uid: token.interactionUid,
          client_id: token.clientId,
          provider: token.provider,
          subject: token.subject,
          email: token.email,
          attempts: 0,
          expires_at: token.expiresAt,
          consumed_at: null,
          created_at: token.at,
        })
        .execute();
    },

    async findLinkToken(id: string): Promise<SocialLinkTokenRow | undefined> {
      return db.selectFrom('social_link_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    },

  };
}
export type SocialQueries = ReturnType<typeof createSocialQueries>;
