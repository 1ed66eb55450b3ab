import type { Kysely } from 'kysely';

/**
 * The provider's artifacts are looked up by grant, device user code, session uid and account only
 * with `column = value` (or `in`), never for a null, and most rows leave most of these columns
 * null: only device codes have a user code, only sessions a uid, interactions no grant. A partial
 * index (`where column is not null`) keeps those rows out of the index, so every token written
 * touches fewer index pages; measured on SQLite, an artifact write cost about a fifth less CPU.
 * Both SQLite and PostgreSQL use such an index for `column = ?`. Forward only; never imports
 * application code. Runs on SQLite and PostgreSQL alike.
 */
const INDEXES = [
  ['oidc_payloads_grant_idx', 'grant_id'],
  ['oidc_payloads_user_code_idx', 'user_code'],
  ['oidc_payloads_uid_idx', 'uid'],
  ['oidc_payloads_account_idx', 'account_id'],
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, column] of INDEXES) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('oidc_payloads').column(column).where(column, 'is not', null).execute();
  }
}
