import type { Kysely } from 'kysely';

/**
 * Backup codes of 2-step verification: ten per account, each stored only as a keyed hash and
 * marked used once spent. (user_id, code_hash) is unique, which is also the index a sign-in's
 * lookup and its conditional UPDATE use. Forward only; never imports application code.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('backup_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(128)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('backup_codes_user_code_idx').on('backup_codes').columns(['user_id', 'code_hash']).unique().execute();
}
