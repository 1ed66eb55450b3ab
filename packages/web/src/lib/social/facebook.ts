import type { Locale } from '@passgate/contract';
import { injectScript, onceAtATime } from './load-script.ts';
import { SocialSdkError, type SocialSdk } from './sdk.ts';

/**
 * Facebook's JavaScript SDK (https://developers.facebook.com/docs/javascript): FB.login's popup
 * hands back a user access token, which the server checks with the app's debug_token call before
 * trusting anything about the person. No cookie, no XFBML: the SDK is used for the popup only.
 */

export const FACEBOOK_SDK_ORIGIN = 'https://connect.facebook.net';
export const FACEBOOK_SDK_VERSION = 'v19.0';
const SCOPE = 'public_profile,email';
const SDK_LOCALES: Record<Locale, string> = { vi: 'vi_VN', en: 'en_US' };

interface LoginStatus {
  status?: string;
  authResponse?: { accessToken?: string } | null;
}
export interface FacebookSdkApi {
  init(options: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
  login(callback: (response: LoginStatus) => void, options: { scope: string }): void;
}

declare global {
  interface Window {
    FB?: FacebookSdkApi;
  }
}

const fb = () => window.FB;
// The SDK speaks the language of the page it was first loaded for; a later switch keeps it.
const script = onceAtATime((locale: Locale) => {
  const present = fb();
  const loaded = present ? Promise.resolve(present) : injectScript(`${FACEBOOK_SDK_ORIGIN}/${SDK_LOCALES[locale]}/sdk.js`, fb);
  return loaded.then((api): { api: FacebookSdkApi; appId: string | null } => ({ api, appId: null }));
});

export async function loadFacebookSdk(appId: string, locale: Locale): Promise<SocialSdk> {
  const sdk = await script.get(locale);
  if (sdk.appId !== appId) {
    sdk.api.init({ appId, version: FACEBOOK_SDK_VERSION, cookie: false, xfbml: false });
    sdk.appId = appId;
  }
  return {
    signIn: () =>
      new Promise<string | null>((resolve, reject) => {
        try {
          // No authResponse: the user closed the window or did not allow the app.
          sdk.api.login((response) => resolve(response.authResponse?.accessToken || null), { scope: SCOPE });
        } catch (error) {
          reject(new SocialSdkError('failed', error instanceof Error ? error.message : 'FB.login failed'));
        }
      }),
  };
}

/** Forgets the loaded script (tests). */
export function resetFacebookSdk(): void {
  script.reset();
}
