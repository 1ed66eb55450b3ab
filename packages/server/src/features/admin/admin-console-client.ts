import type { AppContext } from '../../context.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { createClientService } from '../clients/clients.service.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from './admin-auth.ts';

/** What the built-in `admin-console` client is, for a given PUBLIC_URL. */
export function adminConsoleSettings(publicUrl: string) {
  return {
    name: 'Passgate Admin Console',
    tokenEndpointAuthMethod: 'none' as const,
    redirectUris: [`${publicUrl}/admin/callback`],
    postLogoutRedirectUris: [`${publicUrl}/admin`],
    initiateLoginUri: `${publicUrl}/admin`,
    grantTypes: ['authorization_code' as const],
    // Admins sign in with their password or a device (then 2-step); no registration, no social sign-in.
    permissions: ['users:email:login' as const, 'users:phoneNumber:login' as const, 'password:reset' as const, 'webauthn:login' as const],
  };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Makes sure the built-in public PKCE client `admin-console` exists, at every start in every mode
 * (and from `passgate admin grant`). It lives in one tenant, whose users are the ones who can sign
 * in to the console: `tenantId` when given and the client does not exist yet, else the tenant of the
 * `account` client (the seeded `demo` in development). Without either it is not created (answers
 * undefined). An existing one keeps its tenant and settings; at the server's start (`realign`) its
 * redirect and post-logout URIs and auth method are brought back to what PUBLIC_URL says. The command
 * line does not realign: it may run without the server's PUBLIC_URL, and would point the console's
 * sign-in somewhere else. Answers the client's tenant.
 */
export async function ensureAdminConsoleClient(ctx: AppContext, options: { tenantId?: string; realign?: boolean } = {}): Promise<string | undefined> {
  const settings = adminConsoleSettings(ctx.config.publicUrl);
  const service = createClientService({ db: ctx.db, keys: ctx.keys });
  const actor = { by: 'system' };

  const existing = await ctx.clients.findById(ADMIN_CONSOLE_CLIENT_ID);
  if (existing) {
    if (options.realign === false) return existing.tenantId;
    const drifted =
      !sameList(existing.redirectUris, settings.redirectUris) ||
      !sameList(existing.postLogoutRedirectUris, settings.postLogoutRedirectUris) ||
      existing.tokenEndpointAuthMethod !== 'none';
    if (drifted) {
      const { redirectUris, postLogoutRedirectUris, tokenEndpointAuthMethod } = settings;
      await service.update(ADMIN_CONSOLE_CLIENT_ID, { redirectUris, postLogoutRedirectUris, tokenEndpointAuthMethod }, actor);
    }
    return existing.tenantId;
  }

  const tenantId = options.tenantId ?? (await ctx.clients.findById(ACCOUNT_CLIENT_ID))?.tenantId;
  if (!tenantId || !(await ctx.tenants.findById(tenantId))) return undefined;
  try {
    await service.create({ id: ADMIN_CONSOLE_CLIENT_ID, tenantId, ...settings }, actor);
  } catch (error) {
    // Another instance starting on the same database may have created it a moment ago.
    const created = await ctx.clients.findById(ADMIN_CONSOLE_CLIENT_ID);
    if (!created) throw error;
    return created.tenantId;
  }
  return tenantId;
}
