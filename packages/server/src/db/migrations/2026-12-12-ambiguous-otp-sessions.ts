import type { Kysely } from 'kysely';

/**
 * Before this release `otp` in a sign-in's `amr` stood for any one-time code: the authenticator
 * app's, but also an e-mailed second step and a passwordless SMS code. Since then it stands only
 * for what the person holds offline (the app, a backup code), and the admin console and an
 * administrator's factor changes trust `mfa` with `otp` as the app (features/admin/admin-two-step.ts).
 * A provider session (or an authorization code) signed in under the old meaning would read as
 * such a sign-in, so those are ended here: their users sign in to Passgate once more (relying
 * parties' own sessions and refresh tokens are untouched). Artifacts Redis holds are codes that
 * expire within ten minutes. Forward only; never imports application code.
 */
const MODELS = ['Session', 'AuthorizationCode'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations work on the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  const rows: { model: string; id: string; payload: string }[] = await db
    .selectFrom('oidc_payloads')
    .select(['model', 'id', 'payload'])
    .where('model', 'in', MODELS)
    .where('payload', 'like', '%"otp"%')
    .execute();
  for (const row of rows) {
    let amr: unknown;
    try {
      amr = (JSON.parse(row.payload) as { amr?: unknown }).amr;
    } catch {
      continue;
    }
    if (!Array.isArray(amr) || !amr.includes('otp')) continue;
    await db.deleteFrom('oidc_payloads').where('model', '=', row.model).where('id', '=', row.id).execute();
  }
}
