import type { AppContext } from '../../context.ts';
import { ACCOUNT_CLIENT_ID } from '../../plugins/account-auth.ts';
import { ensureBuiltInClient, type BuiltInClientSettings, type EnsureOptions } from '../clients/built-in-client.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from './admin-auth.ts';

/** What the built-in `admin-console` client is, for a given PUBLIC_URL. */
export function adminConsoleSettings(publicUrl: string): BuiltInClientSettings {
  return {
    name: 'Passgate Admin Console',
    tokenEndpointAuthMethod: 'none',
    redirectUris: [`${publicUrl}/admin/callback`],
    postLogoutRedirectUris: [`${publicUrl}/admin`],
    initiateLoginUri: `${publicUrl}/admin`,
    grantTypes: ['authorization_code'],
    // Admins sign in with their password or a device (then 2-step); no registration, no social sign-in.
    permissions: ['users:email:login', 'users:phoneNumber:login', 'password:reset', 'webauthn:login'],
  };
}

/**
 * Makes sure the built-in public PKCE client `admin-console` exists, at every start in every mode
 * (and from `passgate admin grant`). It lives in one tenant, whose users are the ones who can sign
 * in to the console: `tenantId` when given and the client does not exist yet, else the tenant of the
 * `account` client (the seeded `demo` in development). Without either it is not created (answers
 * undefined). See ensureBuiltInClient for an existing one. Answers the client's tenant.
 */
export function ensureAdminConsoleClient(ctx: AppContext, options: EnsureOptions = {}): Promise<string | undefined> {
  return ensureBuiltInClient(ctx, ADMIN_CONSOLE_CLIENT_ID, adminConsoleSettings(ctx.config.publicUrl), options, async () => (await ctx.clients.findById(ACCOUNT_CLIENT_ID))?.tenantId);
}
