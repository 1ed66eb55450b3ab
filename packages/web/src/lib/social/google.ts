import { injectScript, onceAtATime } from './load-script.ts';
import { SocialSdkError, type SocialSdk } from './sdk.ts';

/**
 * Google Identity Services' token client (https://developers.google.com/identity/oauth2/web):
 * the popup hands back an OAuth access token, which the server checks with Google's tokeninfo
 * (audience = the client's Google app id) before trusting anything about the person.
 */

export const GOOGLE_SDK_URL = 'https://accounts.google.com/gsi/client';
const SCOPE = 'openid email profile';

interface TokenResponse {
  access_token?: string;
  error?: string;
}
interface TokenClientConfig {
  client_id: string;
  scope: string;
  callback: (response: TokenResponse) => void;
  /** popup_closed, popup_failed_to_open or unknown. */
  error_callback?: (error: { type: string }) => void;
}
export interface GoogleOAuth2 {
  initTokenClient(config: TokenClientConfig): { requestAccessToken(): void };
}

declare global {
  interface Window {
    google?: { accounts?: { oauth2?: GoogleOAuth2 } };
  }
}

const oauth2 = () => window.google?.accounts?.oauth2;
const script = onceAtATime(() => {
  const present = oauth2();
  return present ? Promise.resolve(present) : injectScript(GOOGLE_SDK_URL, oauth2);
});

type Pending = { resolve: (token: string | null) => void; reject: (error: unknown) => void };

export async function loadGoogleSdk(appId: string): Promise<SocialSdk> {
  const google = await script.get();
  let pending: Pending | null = null;
  const settle = (outcome: (waiting: Pending) => void) => {
    const waiting = pending;
    pending = null;
    if (waiting) outcome(waiting);
  };
  const client = google.initTokenClient({
    client_id: appId,
    scope: SCOPE,
    callback: (response) =>
      settle((waiting) => {
        if (response.access_token) waiting.resolve(response.access_token);
        // The user declined to share their account: as if they had closed the window.
        else if (response.error === 'access_denied') waiting.resolve(null);
        else waiting.reject(new SocialSdkError('failed', `Google answered ${response.error ?? 'no token'}`));
      }),
    error_callback: (error) =>
      settle((waiting) => {
        if (error.type === 'popup_closed') waiting.resolve(null);
        else waiting.reject(new SocialSdkError(error.type === 'popup_failed_to_open' ? 'popup' : 'failed', `Google: ${error.type}`));
      }),
  });
  return {
    signIn: () =>
      new Promise<string | null>((resolve, reject) => {
        // A second click while the first popup is open replaces it: the first attempt just ends.
        settle((earlier) => earlier.resolve(null));
        pending = { resolve, reject };
        client.requestAccessToken();
      }),
  };
}

/** Forgets the loaded script (tests). */
export function resetGoogleSdk(): void {
  script.reset();
}
