import { runtimeConfig } from '../../lib/runtime-config.ts';
import { createOidcSession } from '../account/auth.ts';

export const ADMIN_CONSOLE_CLIENT_ID = 'admin-console';

/**
 * The console signs in like the account area, with its own public PKCE client `admin-console`
 * (redirect /admin/callback, post-logout /admin). Its tokens stay in this tab: they are never
 * handed to the account area's tabs, nor taken from them.
 */
export const adminSession = createOidcSession(() => {
  const config = runtimeConfig();
  const origin = new URL(config.redirectUri).origin;
  const admin = config.adminConsole ?? {
    clientId: ADMIN_CONSOLE_CLIENT_ID,
    redirectUri: `${origin}/admin/callback`,
    postLogoutRedirectUri: `${origin}/admin`,
  };
  return { ...admin, scope: 'openid profile email', home: '/admin', shareWithTabs: false };
});
