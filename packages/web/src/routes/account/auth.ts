import { UserManager, WebStorageStateStore, type User } from 'oidc-client-ts';
import { currentLanguage } from '../../i18n/i18n.ts';
import { carryLocaleToNextPage } from '../../i18n/language.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { announceSession, announceSignOut, offerSessionToOtherTabs, sessionFromOtherTab } from './tab-session.ts';

/** Which public client of the provider an area of the app signs in with, and where it lives. */
export interface OidcAreaSettings {
  clientId: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  scope: string;
  /** Where a sign-in returns to when it carries no (safe) page of its own. */
  home: string;
  /** Whether this origin's tabs hand the session to each other (tab-session.ts): the account area only. */
  shareWithTabs: boolean;
}

/** A signed-in area's session: the same code for the account area (`account`) and the admin console (`admin-console`). */
export interface OidcSession {
  userManager: () => UserManager;
  currentSession: () => Promise<User | null>;
  safeReturnTo: (value: unknown) => string;
  startSignIn: (returnTo: string, options?: { forget?: boolean; reauthenticate?: boolean }) => Promise<void>;
  completeSignIn: (url?: string) => Promise<User>;
  signOut: (user: User | null) => Promise<void>;
  forgetUser: () => Promise<void>;
  /** Looks up the session (as currentSession) before the area first renders; settles when known. */
  lookUpBeforeRender: () => Promise<void>;
  /** What lookUpBeforeRender found (null: no session), once; undefined when it did not run or finish. */
  takeFoundBeforeRender: () => User | null | undefined;
}

/**
 * An area is a public client of the provider: authorization code with PKCE, the tokens kept in
 * sessionStorage for this tab (and, for the account area, handed to this origin's other tabs when
 * they ask, tab-session.ts, instead of each tab signing in again).
 */
export function createOidcSession(settings: () => OidcAreaSettings): OidcSession {
  let manager: UserManager | null = null;
  const share = () => settings().shareWithTabs;

  function userManager(): UserManager {
    if (!manager) {
      const config = settings();
      manager = new UserManager({
        authority: runtimeConfig().authority,
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
      if (config.shareWithTabs) offerSessionToOtherTabs(manager);
    }
    return manager;
  }

  /** Only paths of this app are returned to after sign-in (no open redirect through the state). */
  function safeReturnTo(value: unknown): string {
    if (typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')) return value;
    return settings().home;
  }

  const callbacks = new Map<string, Promise<User>>();

  /** This tab's session, else one another tab holds (account area only); null when neither has one. */
  async function currentSession(): Promise<User | null> {
    const users = userManager();
    const user = (await users.getUser()) ?? (share() ? await sessionFromOtherTab(users) : null);
    if (user && share()) announceSession();
    return user;
  }

  // Taken once: a later guard of the same page (after a sign-out) looks the session up again
  // rather than trust what was found when the page loaded.
  let foundBeforeRender: { user: User | null } | undefined;

  return {
    userManager,
    safeReturnTo,
    currentSession,
    lookUpBeforeRender() {
      return currentSession().then(
        (user) => {
          foundBeforeRender = { user };
        },
        // The guard's own lookup then tries again, and shows what fails.
        () => undefined,
      );
    },
    takeFoundBeforeRender() {
      const found = foundBeforeRender?.user;
      foundBeforeRender = undefined;
      return found;
    },
    /** Sends the browser to the provider's sign-in; it comes back to the redirect URI, then to `returnTo`. */
    async startSignIn(returnTo, options = {}) {
      const users = userManager();
      if (options.forget) await users.removeUser();
      // reauthenticate: the provider asks for the credentials even with a live session (a fresh sign-in, as some changes need).
      await users.signinRedirect({ state: { returnTo: safeReturnTo(returnTo) }, ui_locales: currentLanguage(), ...(options.reauthenticate ? { prompt: 'login' } : {}) });
    },
    /** Completes the sign-in at the callback, once per callback address even if React asks twice. */
    completeSignIn(url = window.location.href) {
      let pending = callbacks.get(url);
      if (!pending) {
        pending = userManager()
          .signinRedirectCallback(url)
          .then((user) => {
            if (share()) announceSession();
            return user;
          });
        callbacks.set(url, pending);
      }
      return pending;
    },
    async signOut(user) {
      if (share()) announceSignOut();
      // The logout screen and the sign-in after it speak the language the user was reading: the
      // end-session request asks for it, and the page it returns to (an address registered as is) is told.
      carryLocaleToNextPage(currentLanguage());
      await userManager().signoutRedirect({ id_token_hint: user?.id_token, extraQueryParams: { ui_locales: currentLanguage() } });
    },
    /** Forgets the session (the caller navigates). */
    async forgetUser() {
      foundBeforeRender = undefined;
      await userManager().removeUser();
    },
  };
}

/** The account area: the `account` client of the runtime configuration, shared between tabs. */
export const accountSession = createOidcSession(() => {
  const config = runtimeConfig();
  return {
    clientId: config.clientId,
    redirectUri: config.redirectUri,
    postLogoutRedirectUri: config.postLogoutRedirectUri,
    scope: config.scope,
    home: '/user/dashboard',
    shareWithTabs: true,
  };
});

export const { userManager, currentSession, safeReturnTo, startSignIn, completeSignIn, signOut, forgetUser } = accountSession;
