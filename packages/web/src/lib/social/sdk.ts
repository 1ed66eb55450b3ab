import type { Locale, SocialAuthorizer } from '@passgate/contract';

/**
 * The provider's web SDK, loaded and initialised for one app id, ready to ask for an access token.
 * `signIn` must be called synchronously inside the click handler: browsers let only a user
 * gesture open the provider's popup, so nothing may be awaited before it.
 */
export interface SocialSdk {
  /** Opens the provider's popup; resolves with the access token, or null when the user closed it or declined. */
  signIn(): Promise<string | null>;
}

/** Why the SDK gave no token: it could not be loaded, its popup was blocked, or it failed otherwise. */
export type SocialSdkFailure = 'load' | 'popup' | 'failed';

export class SocialSdkError extends Error {
  override readonly name = 'SocialSdkError';
  constructor(
    readonly reason: SocialSdkFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Loads the SDK of `authorizer` for `appId`. The loaders are their own chunks (dynamic import),
 * so neither SDK's code is part of the first load of /login; each injects the provider's script
 * only when called, i.e. when a button that needs it is shown.
 */
export function loadSocialSdk(authorizer: SocialAuthorizer, appId: string, locale: Locale): Promise<SocialSdk> {
  return authorizer === 'google'
    ? import('./google.ts').then(({ loadGoogleSdk }) => loadGoogleSdk(appId))
    : import('./facebook.ts').then(({ loadFacebookSdk }) => loadFacebookSdk(appId, locale));
}
