import type { AppContext } from '../../context.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { ensureBuiltInClient, type BuiltInClientSettings, type EnsureOptions } from '../clients/built-in-client.ts';

/** What the built-in `account` client (the account area at /user) is, for a given PUBLIC_URL. */
export function accountClientSettings(publicUrl: string): BuiltInClientSettings {
  return {
    name: 'Passgate Account',
    tokenEndpointAuthMethod: 'none',
    redirectUris: [`${publicUrl}/user/callback`],
    postLogoutRedirectUris: [`${publicUrl}/user/dashboard`, `${publicUrl}/`],
    // The account area signs in by itself when opened.
    initiateLoginUri: `${publicUrl}/user/dashboard`,
    // No refresh tokens (README, security model): a script injected into this origin could
    // otherwise ask for offline_access through the user's session and keep a 14-day token for the
    // account API. The area signs in again through the provider session when its token expires.
    grantTypes: ['authorization_code'],
  };
}

/**
 * Makes sure the built-in public PKCE client `account` exists: without it the account area at /user
 * signs nobody in. It lives in one tenant, whose users the account area serves: `tenantId` when
 * given (`passgate tenant create` of the first tenant, `passgate admin grant --tenant`), else the
 * only tenant when there is exactly one; otherwise it is not created (undefined) and the server's
 * start says how to create it. See ensureBuiltInClient for an existing one. Answers its tenant.
 */
export function ensureAccountClient(ctx: AppContext, options: EnsureOptions = {}): Promise<string | undefined> {
  return ensureBuiltInClient(ctx, ACCOUNT_CLIENT_ID, accountClientSettings(ctx.config.publicUrl), options, async () => {
    const tenants = await ctx.tenants.list();
    return tenants.length === 1 ? tenants[0]!.id : undefined;
  });
}
