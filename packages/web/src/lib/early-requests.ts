import { loadLoginRequest, loginRequestKey } from './login-request.ts';
import { cachedRequest } from './request-cache.ts';

/**
 * Starts the request the first screen will read as soon as the configuration is known, beside the
 * language's texts and before the screen renders: the sign-in screen finds it in the request cache
 * instead of asking only once it is on the page.
 */
export function startFirstScreenRequests(languageReady: Promise<unknown>, location: Location = window.location): void {
  if (location.pathname !== '/login') return;
  const challenge = new URLSearchParams(location.search).get('challenge');
  if (!challenge) return;
  // A failure is the screen's to show (with Retry), when it reads the same promise.
  cachedRequest(loginRequestKey(challenge), () => loadLoginRequest(challenge, location.search, languageReady)).catch(() => undefined);
}
