import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { announceSession, announceSignOut, offerSessionToOtherTabs, sessionFromOtherTab } from './tab-session.ts';

/**
 * The account area is a public client of the provider (`account`): authorization code with PKCE,
 * the tokens kept in sessionStorage for this tab, and handed to this origin's other tabs when
 * they ask (tab-session.ts) instead of each tab signing in again.
 */
let manager: UserManager | null = null;

export function userManager(): UserManager {
  if (!manager) {
    const config = runtimeConfig();
    manager = new UserManager({
      authority: config.authority,
      client_id: config.clientId,
      redirect_uri: config.redirectUri,
      post_logout_redirect_uri: config.postLogoutRedirectUri,
      scope: config.scope,
      response_type: 'code',
      userStore: new WebStorageStateStore({ store: window.sessionStorage }),
      // No refresh token and no silent-renew page: an expired session sends the user to sign in again.
      automaticSilentRenew: false,
      loadUserInfo: false,
    });
    offerSessionToOtherTabs(manager);
  }
  return manager;
}

/** This tab's session, else one another tab of the account area holds; null when neither has one. */
export async function currentSession(): Promise<User | null> {
  const users = userManager();
  const user = (await users.getUser()) ?? (await sessionFromOtherTab(users));
  if (user) announceSession();
  return user;
}

/** Only paths of this app are returned to after sign-in (no open redirect through the state). */
export function safeReturnTo(value: unknown): string {
  if (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
  return '/user/dashboard';
}

/** Sends the browser to the provider's sign-in; it comes back to /user/callback, then to `returnTo`. */
export async function startSignIn(returnTo: string, options: { forget?: boolean } = {}): Promise<void> {
  const users = userManager();
  if (options.forget) await users.removeUser();
  await users.signinRedirect({ state: { returnTo: safeReturnTo(returnTo) }, ui_locales: currentLanguage() });
}

const callbacks = new Map<string, Promise<User>>();

/** Completes the sign-in at /user/callback, once per callback address even if React asks twice. */
export function completeSignIn(url: string = window.location.href): Promise<User> {
  let pending = callbacks.get(url);
  if (!pending) {
    pending = userManager()
      .signinRedirectCallback(url)
      .then((user) => {
        announceSession();
        return user;
      });
    callbacks.set(url, pending);
  }
  return pending;
}

export async function signOut(user: User | null): Promise<void> {
  announceSignOut();
  await userManager().signoutRedirect({ id_token_hint: user?.id_token });
}

/** Forgets the session and goes to the session-expired alert (the caller navigates). */
export async function forgetUser(): Promise<void> {
  await userManager().removeUser();
}
