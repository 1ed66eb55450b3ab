import { lazy, Suspense, useEffect, type ErrorInfo, type ReactNode } from 'react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { ApiError, NetworkError } from './api/errors.ts';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { StartupFailure } from './components/StartupFailure.tsx';
import { changeLanguage, currentLanguage, loadTranslationPart } from './i18n/i18n.ts';
import { queryLocale } from './i18n/language.ts';
import { lazyScreen } from './lib/lazy-screen.ts';
import { appTheme } from './theme/themes.ts';
import Login from './routes/login/Login.tsx';

// The login screen, where nearly every visit starts, ships with the entry (one file compresses
// far better than many); every other screen is its own chunk, so the first load of /login never
// fetches the account area (nor oidc-client-ts).
const Logout = lazy(() => import('./routes/logout/Logout.tsx'));
const LoggedOut = lazy(() => import('./routes/logout/LoggedOut.tsx'));
const Login2Step = lazy(() => import('./routes/login/Login2Step.tsx'));
const LoginPasswordless = lazy(() => import('./routes/login/LoginPasswordless.tsx'));
const LoginWebAuthn = lazy(() => import('./routes/webauthn/LoginWebAuthn.tsx'));
const VerifyDevice = lazy(() => import('./routes/webauthn/VerifyDevice.tsx'));
const SocialLink = lazy(() => import('./routes/login/SocialLink.tsx'));
const ErrorScreen = lazy(() => import('./routes/errors/ErrorScreen.tsx'));
const SessionExpired = lazy(() => import('./routes/errors/SessionExpired.tsx'));
const RequestGone = lazy(() => import('./routes/flow/RequestGone.tsx'));
const Privacy = lazy(() => import('./routes/privacy/Privacy.tsx'));
const Register = lazyScreen(() => import('./routes/register/Register.tsx'));
const Activation = lazy(() => import('./routes/register/Activation.tsx'));
const ActivationResend = lazy(() => import('./routes/register/ActivationResend.tsx'));
const PasswordRecover = lazy(() => import('./routes/password/PasswordRecover.tsx'));
const PasswordUpdate = lazy(() => import('./routes/password/PasswordUpdate.tsx'));
const PasswordComingExpire = lazy(() => import('./routes/password/PasswordComingExpire.tsx'));
// The account area's strings are a translation part of their own, fetched with its code.
const AccountArea = lazyScreen(() => Promise.all([import('./routes/account/AccountArea.tsx'), loadTranslationPart('account')]).then(([area]) => area));
const AccountDeleted = lazy(() => import('./routes/account-deleted/AccountDeleted.tsx'));
// The admin console (issue 17): one chunk with its strings, under /admin only.
const AdminConsole = lazy(() => Promise.all([import('./routes/admin/AdminConsole.tsx'), loadTranslationPart('account'), loadTranslationPart('admin')]).then(([area]) => area));

/**
 * Loads the screen of `pathname` when it is one whose chunks come announced with the page
 * (packages/server/src/spa-head.ts): the first render then shows it at once. For the account area
 * the tab's session is looked up meanwhile too (once the runtime configuration is `configured`), so
 * the area's first render is the signed-in one. A failure is left to the render, which shows it as
 * it would have.
 */
export function preloadFirstScreen(pathname: string, configured: Promise<unknown>): Promise<unknown> {
  if (pathname === '/register') return Register.preload().catch(() => undefined);
  if (!pathname.startsWith('/user/')) return Promise.resolve();
  // The callback completes a sign-in instead of looking one up.
  const session =
    pathname === '/user/callback' ? undefined : Promise.all([import('./routes/account/auth.ts'), configured]).then(([{ accountSession }]) => accountSession.lookUpBeforeRender());
  return Promise.all([AccountArea.preload(), session]).catch(() => undefined);
}

/** React's report of an error a boundary caught: failed API calls are shown on screen, not logged. */
export function reportCaughtError(error: unknown, info: ErrorInfo): void {
  if (error instanceof ApiError || error instanceof NetworkError) return;
  console.error(error, info.componentStack);
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={appTheme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}

/** A `locale` in the address wins over everything else (DESIGN.md section 8). */
function LocaleFromAddress() {
  const { search } = useLocation();
  const locale = queryLocale(search);
  useEffect(() => {
    if (locale && locale !== currentLanguage()) void changeLanguage(locale);
  }, [locale]);
  return null;
}

/** A new screen starts at its top, as a page load would (the browser keeps the old scroll otherwise). */
function ScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function AppRoutes() {
  return (
    <ErrorBoundary fallback={<StartupFailure network={false} />}>
      <LocaleFromAddress />
      <ScrollToTopOnNavigation />
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/" element={<Navigate to="/user/dashboard" replace />} />
          <Route path="/login" element={<Login />} />
          <Route path="/login/mfa" element={<Login2Step />} />
          <Route path="/login/passwordless" element={<LoginPasswordless />} />
          <Route path="/login/webauthn" element={<LoginWebAuthn />} />
          <Route path="/login/webauthn/verify-device" element={<VerifyDevice />} />
          <Route path="/login/social-link" element={<SocialLink />} />
          <Route path="/logout" element={<Logout />} />
          <Route path="/logged-out" element={<LoggedOut />} />
          <Route path="/register" element={<Register />} />
          <Route path="/activation" element={<Activation />} />
          <Route path="/activation/resend" element={<ActivationResend />} />
          <Route path="/password/recover" element={<PasswordRecover />} />
          <Route path="/password/update" element={<PasswordUpdate />} />
          <Route path="/password/coming-expire" element={<PasswordComingExpire />} />
          <Route path="/error" element={<ErrorScreen />} />
          <Route path="/request-expired" element={<RequestGone />} />
          <Route path="/alert/session-expired" element={<SessionExpired />} />
          <Route path="/alert/*" element={<Navigate to="/alert/session-expired" replace />} />
          <Route path="/privacy" element={<Privacy />} />
          <Route path="/account-deleted" element={<AccountDeleted />} />
          <Route path="/user/*" element={<AccountArea />} />
          <Route path="/admin/*" element={<AdminConsole />} />
          <Route path="*" element={<Navigate to="/error" replace state={{ status: 404 }} />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
