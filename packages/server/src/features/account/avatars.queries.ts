import type { Kysely, Transaction } from 'kysely';
import type { AvatarRow, Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The `avatars` table: each user's current avatar image. */
export function createAvatarQueries(db: Executor) {
  return {
    async find(key: string): Promise<AvatarRow | undefined> {
      return db.selectFrom('avatars').selectAll().where('key', '=', key).executeTakeFirst();
    },
    /** Stores `avatar` as the user's one avatar: the earlier ones are deleted and users.avatar_key points at it. */
    async replace(avatar: AvatarRow): Promise<void> {
      await db.insertInto('avatars').values(avatar).execute();
      await db.updateTable('users').set({ avatar_key: avatar.key, updated_at: avatar.created_at }).where('id', '=', avatar.user_id).execute();
      await db.deleteFrom('avatars').where('user_id', '=', avatar.user_id).where('key', '!=', avatar.key).execute();
    },
    async deleteForUser(userId: string): Promise<void> {
      await db.deleteFrom('avatars').where('user_id', '=', userId).execute();
    },
  };
}
