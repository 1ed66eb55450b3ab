import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders, AppRoutes, preloadFirstScreen, reportCaughtError } from './App.tsx';
import { NetworkError } from './api/errors.ts';
import { StartupFailure } from './components/StartupFailure.tsx';
import { initI18n } from './i18n/i18n.ts';
import { mirrorLocaleToServer, queryLocale, resolveLocale, storedLocale, takeCarriedLocale } from './i18n/language.ts';
import { startFirstScreenRequests } from './lib/early-requests.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { releaseShellWhenScreenShows } from './lib/sign-in-shell.ts';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('#root is missing from index.html');
  releaseShellWhenScreenShows(container);
  const root = createRoot(container, { onCaughtError: reportCaughtError });

  // The client's own language setting is applied by the Login screen once it knows the client.
  // A language handed on by the page before (the account area's logout) comes after those two.
  const carried = takeCarriedLocale();
  const stored = storedLocale();
  if (stored) mirrorLocaleToServer(stored);
  const locale = resolveLocale({ query: queryLocale(), stored: stored ?? carried });
  // The configuration usually comes with the page; the first screen's request then starts beside
  // the language's texts rather than after them.
  const languageReady = initI18n(locale);
  const configured = loadRuntimeConfig();
  const [config] = await Promise.allSettled([
    configured.then(() => startFirstScreenRequests(languageReady)),
    languageReady,
    preloadFirstScreen(window.location.pathname, configured),
  ]);

  root.render(
    <StrictMode>
      <AppProviders>
        <BrowserRouter>{config.status === 'fulfilled' ? <AppRoutes /> : <StartupFailure network={config.reason instanceof NetworkError} />}</BrowserRouter>
      </AppProviders>
    </StrictMode>,
  );
}

void start();
