import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { changeLanguage, initI18n, loadTranslationPart } from '../i18n/i18n.ts';
import { resetRecaptcha } from '../lib/recaptcha.ts';
import { resetFacebookSdk } from '../lib/social/facebook.ts';
import { resetGoogleSdk } from '../lib/social/google.ts';
import { clearRequestCache } from '../lib/request-cache.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { testConfig } from './fixtures.ts';

// The first render of a lazy screen transforms its chunk on the fly, which takes seconds on a
// busy two-core machine (CI runs other suites beside it): give it time.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no layout, so no scrolling: the SPA's scroll to the top of each new screen does nothing here.
window.scrollTo = () => undefined;

// jsdom has no matchMedia: width queries answer for its window (1024 px wide unless a test changes
// it), so screens render as on that desktop (the permanent side menu, not the phone's drawer).
window.matchMedia = (query: string): MediaQueryList => {
  const min = /min-width:\s*([\d.]+)px/.exec(query)?.[1];
  const max = /max-width:\s*([\d.]+)px/.exec(query)?.[1];
  // Anything else (reduced motion, dark scheme) is not asked for, as before matchMedia existed here.
  const matches = (min !== undefined || max !== undefined) && (min === undefined || window.innerWidth >= Number(min)) && (max === undefined || window.innerWidth <= Number(max));
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  };
};

beforeAll(async () => {
  await initI18n('vi');
  await loadTranslationPart('account');
  // index.html's icon, which a client's theme replaces while its screens are shown.
  const icon = document.createElement('link');
  icon.rel = 'icon';
  icon.href = '/favicon.svg';
  document.head.append(icon);
});

beforeEach(() => {
  setRuntimeConfig(testConfig);
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  clearRequestCache();
  resetRecaptcha();
  for (const script of document.querySelectorAll('script[src*="recaptcha"]')) script.remove();
  // The Google and Facebook SDKs a Login screen loaded (or the stand-ins a test put in their place).
  resetGoogleSdk();
  resetFacebookSdk();
  for (const script of document.querySelectorAll('script[src^="https://accounts.google.com/"], script[src^="https://connect.facebook.net/"]')) script.remove();
  delete window.google;
  delete window.FB;
  await changeLanguage('vi');
});
