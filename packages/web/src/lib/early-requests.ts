import type { LoginRequestInfo } from '@passgate/contract';
import { loadLoginRequest, loginRequestFromPage, loginRequestKey } from './login-request.ts';
import { cachedRequest } from './request-cache.ts';

/** The sign-in request the server put into the page (packages/server/src/spa-head.ts), if it did. */
function loginRequestInPage(challenge: string): LoginRequestInfo | null {
  const text = document.getElementById('passgate-login-request')?.textContent;
  if (!text) return null;
  try {
    const info = JSON.parse(text) as LoginRequestInfo;
    return info.challenge === challenge ? info : null;
  } catch {
    return null;
  }
}

/** The screens that read the sign-in request (the server puts it into these pages, spa.ts). */
const REQUEST_IN_PAGE = new Set(['/login', '/register']);

/**
 * Starts the request the first screen will read as soon as the configuration is known, beside the
 * language's texts and before the screen renders: the sign-in screen finds it in the request cache
 * instead of asking only once it is on the page. The page usually carries it already.
 */
export async function startFirstScreenRequests(languageReady: Promise<unknown>, location: Location = window.location): Promise<void> {
  if (!REQUEST_IN_PAGE.has(location.pathname)) return;
  const challenge = new URLSearchParams(location.search).get('challenge');
  if (!challenge) return;
  const inPage = loginRequestInPage(challenge);
  const pending = cachedRequest(loginRequestKey(challenge), () =>
    inPage ? loginRequestFromPage(inPage, location.search, languageReady) : loadLoginRequest(challenge, location.search, languageReady),
  );
  // A failure is the screen's to show (with Retry), when it reads the same promise.
  if (!inPage) {
    pending.catch(() => undefined);
    return;
  }
  // Known with the page: the first render waits for it (and the client's language) and, marked
  // settled the way React's use() reads a promise, shows the screen at once instead of a spinner first.
  const info = await pending.catch(() => null);
  if (info) Object.assign(pending, { status: 'fulfilled', value: info });
}
