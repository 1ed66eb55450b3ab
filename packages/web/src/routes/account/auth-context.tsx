import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { User } from 'oidc-client-ts';
import { Loading } from '../../components/Loading.tsx';
import { currentLanguage } from '../../i18n/i18n.ts';
import { asLocale, userChoseLocale } from '../../i18n/language.ts';
import { accountSession, type OidcSession } from './auth.ts';

export const AUTH_USER_KEY = ['auth', 'user'] as const;

interface AuthValue {
  user: User;
  accessToken: string;
  /** Log out: the provider's end-session with id_token_hint. */
  signOut: () => void;
  /** The session is no longer accepted (expired token, 401): forget it and show the alert. */
  expire: () => void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside <RequireAuth>');
  return value;
}

interface RequireAuthProps {
  children: ReactNode;
  /** The area's client and session (the account area's unless told). */
  session?: OidcSession;
  /** Where an expired session leads (the session-expired alert unless told). */
  expiredPath?: string;
  /** Called once a live session is found, before the area renders with it (to start its first requests). */
  onSession?: (accessToken: string, expire: () => void) => void;
}

/** The login guard of /user/* (and /admin/*): no session starts a sign-in; an expired one goes to the session-expired alert. */
export function RequireAuth({ children, session = accountSession, expiredPath = '/alert/session-expired', onSession }: RequireAuthProps) {
  const { currentSession, forgetUser, signOut, startSignIn, userManager } = session;
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  // Idempotent: the token-expired event, the guard and a 401 may all report the same expiry.
  const expire = useCallback(() => {
    // The alert speaks the language the user was reading, even in a tab whose profile never loaded
    // (the ID token names the account's language) and after a reload of the alert itself.
    const profileLocale = asLocale(queryClient.getQueryData<{ locale?: string | null }>(['me'])?.locale);
    const tokenLocale = asLocale(String(queryClient.getQueryData<User | null>(AUTH_USER_KEY)?.profile.locale ?? ''));
    const locale = userChoseLocale() ? currentLanguage() : (profileLocale ?? tokenLocale ?? currentLanguage());
    void forgetUser().finally(() => {
      queryClient.removeQueries({ queryKey: AUTH_USER_KEY });
      queryClient.removeQueries({ queryKey: ['me'] });
      void navigate(`${expiredPath}?locale=${locale}`, { replace: true });
    });
  }, [navigate, queryClient, forgetUser, expiredPath]);

  // The session main.tsx looked up while the area's code loaded (the page's shell covers the
  // screen meanwhile): the area then renders once, signed in, instead of a spinner first and the
  // whole area again when the lookup ends (on a slow phone, a long task saved).
  const [foundBeforeRender] = useState(() => {
    const found = session.takeFoundBeforeRender();
    if (found && !found.expired) onSession?.(found.access_token, expire);
    return found;
  });
  const userQuery = useQuery({
    queryKey: AUTH_USER_KEY,
    queryFn: async () => {
      const found = await currentSession();
      if (found && !found.expired) onSession?.(found.access_token, expire);
      return found;
    },
    staleTime: Infinity,
    ...(foundBeforeRender !== undefined ? { initialData: foundBeforeRender } : {}),
  });
  const [signInFailed, setSignInFailed] = useState(false);
  const user = userQuery.data;
  const status = userQuery.isError || user === null ? 'anonymous' : user === undefined ? 'checking' : user.expired ? 'expired' : 'ready';

  const returnTo = `${location.pathname}${location.search}`;
  const signingIn = useRef(false);
  useEffect(() => {
    if (status === 'anonymous' && !signingIn.current) {
      signingIn.current = true;
      startSignIn(returnTo).catch(() => {
        signingIn.current = false;
        setSignInFailed(true);
      });
    }
    if (status === 'expired') expire();
  }, [status, returnTo, expire, startSignIn]);

  useEffect(() => {
    const events = userManager().events;
    events.addAccessTokenExpired(expire);
    return () => events.removeAccessTokenExpired(expire);
  }, [expire, userManager]);

  const value = useMemo<AuthValue | null>(
    () => (user && status === 'ready' ? { user, accessToken: user.access_token, signOut: () => void signOut(user), expire } : null),
    [user, status, expire, signOut],
  );

  if (signInFailed) {
    return (
      <Box sx={{ maxWidth: 420, mx: 'auto', mt: 8, px: 2 }}>
        <Alert severity="error" role="alert">
          {t('messages.cannotConnect')}
        </Alert>
      </Box>
    );
  }
  if (!value) return <Loading label={t('account.signingIn')} />;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
