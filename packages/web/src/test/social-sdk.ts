import { vi } from 'vitest';
import { GOOGLE_SDK_URL, type GoogleOAuth2 } from '../lib/social/google.ts';
import type { FacebookSdkApi } from '../lib/social/facebook.ts';

/** The provider SDKs as the page sees them, for the Login and Register screens' tests. */

export const googleScripts = () => document.querySelectorAll(`script[src="${GOOGLE_SDK_URL}"]`);
export const facebookScripts = () => document.querySelectorAll('script[src^="https://connect.facebook.net/"]');

type TokenCallbacks = Parameters<GoogleOAuth2['initTokenClient']>[0];

/**
 * Google Identity Services: initTokenClient keeps its callbacks, and requestAccessToken answers
 * with `outcome` (a token, or the popup closed). It notes whether it was called inside the click,
 * as a real popup must be.
 */
export function fakeGoogle(outcome: { token: string } | { closed: true } | { popupBlocked: true }) {
  const configs: TokenCallbacks[] = [];
  const calls: { inClick: boolean }[] = [];
  const oauth2: GoogleOAuth2 = {
    initTokenClient(config) {
      configs.push(config);
      return {
        requestAccessToken() {
          calls.push({ inClick: window.event?.type === 'click' });
          queueMicrotask(() => {
            if ('token' in outcome) config.callback({ access_token: outcome.token });
            else config.error_callback?.({ type: 'closed' in outcome ? 'popup_closed' : 'popup_failed_to_open' });
          });
        },
      };
    },
  };
  return { oauth2, configs, calls };
}

/** The Facebook SDK: FB.login answers with `token`, or as a closed popup when null. */
export function fakeFacebook(token: string | null) {
  return {
    init: vi.fn<FacebookSdkApi['init']>(),
    login: vi.fn<FacebookSdkApi['login']>((callback) => callback(token ? { status: 'connected', authResponse: { accessToken: token } } : { status: 'unknown', authResponse: null })),
  };
}
