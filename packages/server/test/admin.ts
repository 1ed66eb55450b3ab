import type { AuthorizationCodeGrantOptions } from 'openid-client';
import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../src/context.ts';
import { createUserService } from '../src/features/users/users.service.ts';
import { createAdminRoleQueries, type AdminRole } from '../src/features/admin/admin-roles.queries.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from '../src/features/admin/admin-auth.ts';
import { TestBrowser } from './browser.ts';
import { authorizationRequest, finishSignIn, relyingParty, startSignIn, type RelyingParty } from './relying-party.ts';
import { call } from './account.ts';

/** Helpers for the admin API's tests (issue 17): admins with 2-step verification, their admin-console tokens, calls. */

const PASSWORD = 'Passw0rd!';

export interface TestAdmin {
  id: string;
  email: string;
  /** The authenticator app's secret (base32), when 2-step is set up. */
  totpSecret?: string;
}

/** The code an authenticator app shows `offsetSteps` steps of 30 s from now. */
export function totpCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/**
 * A user of the console's tenant (demo) with the given roles (none for a plain user) and, unless
 * `twoStep: false`, an authenticator app set up (written as the 2-step settings would store it).
 */
export async function createAdmin(
  ctx: AppContext,
  email: string,
  roles: { role: AdminRole; tenantId?: string }[],
  options: { twoStep?: boolean; tenantId?: string } = {},
): Promise<TestAdmin> {
  const user = await createUserService({ db: ctx.db }).createUser({ tenantId: options.tenantId ?? 'demo', email, name: `Admin ${email}`, password: PASSWORD });
  for (const { role, tenantId } of roles) await createAdminRoleQueries(ctx.db).grant(user.id, role, role === 'operator' ? null : (tenantId ?? null), 'test');
  if (options.twoStep === false) return { id: user.id, email };
  const totpSecret = new Secret({ size: 20 }).base32;
  await ctx.db.updateTable('users').set({ enable_mfa: 1, authenticator_type: 'totp', totp_secret_enc: ctx.keys.encrypt(totpSecret) }).where('id', '=', user.id).execute();
  return { id: user.id, email, totpSecret };
}

/** The admin console as a relying party (public, PKCE, redirect URI /admin/callback). */
export async function adminConsole(baseUrl: string): Promise<RelyingParty> {
  const rp = await relyingParty(baseUrl, ADMIN_CONSOLE_CLIENT_ID);
  return { ...rp, redirectUri: `${baseUrl}/admin/callback` };
}

/**
 * Signs in through the admin console (password, then the authenticator app's code when 2-step is
 * on) and answers the admin-console access token. `rp` signs in at another client instead;
 * `options.DPoP` asks for a token bound to that key (RFC 9449).
 */
export async function adminSignIn(baseUrl: string, admin: TestAdmin, rp?: RelyingParty, options?: AuthorizationCodeGrantOptions): Promise<string> {
  const client = rp ?? (await adminConsole(baseUrl));
  const browser = new TestBrowser();
  const auth = await authorizationRequest(client);
  const challenge = await startSignIn(browser, baseUrl, auth);
  const login = await browser.postJson(`${baseUrl}/api/v1/users/login`, { challenge, username: admin.email, password: PASSWORD, client_id: client.clientId });
  let body = (await login.json()) as { redirectTo?: string; mfaRequired?: boolean; mfaToken?: string; error?: unknown };
  if (login.status !== 200) throw new Error(`admin sign-in failed: ${login.status} ${JSON.stringify(body)}`);
  if (body.mfaRequired) {
    if (!admin.totpSecret) throw new Error('2-step asked of an admin without an authenticator');
    // The next step's code: accepted, and never one a sign-in of this admin used a moment ago.
    const mfa = await browser.postJson(`${baseUrl}/api/v1/mfa/login`, { client_id: client.clientId, token_type: 'totp', mfa_token: body.mfaToken, otp: totpCode(admin.totpSecret, 1), challenge });
    body = (await mfa.json()) as typeof body;
    if (mfa.status !== 200) throw new Error(`admin 2-step failed: ${mfa.status} ${JSON.stringify(body)}`);
  }
  const tokens = await finishSignIn(browser, baseUrl, client, auth, body.redirectTo as string, options);
  return tokens.access_token;
}

/** A call to the admin API (`path` under /api/admin/v1). */
export function adminCall(baseUrl: string, method: string, path: string, options: { token?: string; authorization?: string; body?: unknown; language?: string } = {}) {
  return call(baseUrl, method, `/api/admin/v1${path}`, options);
}

/** The audit records of one type, newest first, with their details parsed. */
export async function auditRecords(ctx: AppContext, type: string) {
  const rows = await ctx.db.selectFrom('audit_events').selectAll().where('type', '=', type).orderBy('created_at', 'desc').execute();
  return rows.map((row) => ({ ...row, details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null }));
}
