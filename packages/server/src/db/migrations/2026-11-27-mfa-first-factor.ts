import type { Kysely } from 'kysely';

/**
 * The first factor an MFA token follows (pwd, sms for a passwordless code, google, facebook), so
 * the finished sign-in reports both in `amr` and the audit says how it began. Existing tokens
 * (at most 5 minutes old) followed a password: null reads as pwd. Forward only.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mfa_tokens').addColumn('first_factor', 'varchar(16)').execute();
}
